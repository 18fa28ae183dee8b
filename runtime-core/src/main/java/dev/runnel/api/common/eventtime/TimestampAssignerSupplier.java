package dev.runnel.api.common.eventtime;

import dev.runnel.metrics.MetricGroup;
import java.io.Serializable;
import java.util.Objects;

/**
 * Creates a {@link TimestampAssigner} per subtask, as Flink's interface of the same name. A
 * {@link WatermarkStrategy} is one; {@link #of} wraps a serializable assigner.
 */
@FunctionalInterface
public interface TimestampAssignerSupplier<T> extends Serializable {

    /** A new assigner for one subtask; {@code context} gives what it may use. */
    TimestampAssigner<T> createTimestampAssigner(Context context);

    /** A supplier that always hands out {@code assigner} itself. */
    static <T> TimestampAssignerSupplier<T> of(SerializableTimestampAssigner<T> assigner) {
        Objects.requireNonNull(assigner, "assigner");
        return context -> assigner;
    }

    /** What an assigner may use while it is created: the metric group of its operator. */
    interface Context {

        /** The metric group of the operator that assigns timestamps. */
        MetricGroup getMetricGroup();
    }
}
