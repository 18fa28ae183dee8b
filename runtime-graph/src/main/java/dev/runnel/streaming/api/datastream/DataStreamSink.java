package dev.runnel.streaming.api.datastream;

import dev.runnel.streaming.api.operators.ChainingStrategy;
import dev.runnel.streaming.api.transformations.SinkTransformation;

/** The end of a pipeline, with the sink's settings. */
public class DataStreamSink<T> {

    private final SinkTransformation<T> transformation;

    DataStreamSink(SinkTransformation<T> transformation) {
        this.transformation = transformation;
    }

    public SinkTransformation<T> getTransformation() {
        return transformation;
    }

    public DataStreamSink<T> name(String name) {
        transformation.setName(name);
        return this;
    }

    public DataStreamSink<T> uid(String uid) {
        transformation.setUid(uid);
        return this;
    }

    public DataStreamSink<T> setParallelism(int parallelism) {
        transformation.setParallelism(parallelism);
        return this;
    }

    public DataStreamSink<T> setMaxParallelism(int maxParallelism) {
        transformation.setMaxParallelism(maxParallelism);
        return this;
    }

    public DataStreamSink<T> disableChaining() {
        transformation.setChainingStrategy(ChainingStrategy.NEVER, "disableChaining()");
        return this;
    }

    public DataStreamSink<T> slotSharingGroup(String slotSharingGroup) {
        transformation.setSlotSharingGroup(slotSharingGroup);
        return this;
    }
}
