package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.transformations.Transformation;
import java.util.List;
import java.util.Objects;

/**
 * A stream whose every element goes to every parallel instance of the operator it is connected to, together
 * with the broadcast states that operator keeps ({@code stream.broadcast(descriptors...)}). Not a
 * {@link DataStream}: it can only be connected to one ({@code connect}), as in Flink.
 *
 * <p>Built on the user's thread while the program is assembled; immutable.
 *
 * @param <T> the element type
 */
public class BroadcastStream<T> {

    private final StreamExecutionEnvironment environment;
    private final Transformation<T> transformation;
    private final List<MapStateDescriptor<?, ?>> broadcastStateDescriptors;

    /** @param transformation the input, already partitioned by broadcast */
    protected BroadcastStream(StreamExecutionEnvironment environment, Transformation<T> transformation,
            MapStateDescriptor<?, ?>... broadcastStateDescriptors) {
        this.environment = Objects.requireNonNull(environment, "environment");
        this.transformation = Objects.requireNonNull(transformation, "transformation");
        this.broadcastStateDescriptors = List.of(broadcastStateDescriptors);
    }

    public TypeInformation<T> getType() {
        return transformation.getOutputType();
    }

    public Transformation<T> getTransformation() {
        return transformation;
    }

    public List<MapStateDescriptor<?, ?>> getBroadcastStateDescriptors() {
        return broadcastStateDescriptors;
    }

    public StreamExecutionEnvironment getEnvironment() {
        return environment;
    }
}
