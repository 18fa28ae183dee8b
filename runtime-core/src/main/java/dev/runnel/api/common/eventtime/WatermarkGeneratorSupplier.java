package dev.runnel.api.common.eventtime;

import dev.runnel.metrics.MetricGroup;
import dev.runnel.util.clock.RelativeClock;
import java.io.Serializable;

/** Creates a {@link WatermarkGenerator} per subtask, as Flink's interface of the same name. */
@FunctionalInterface
public interface WatermarkGeneratorSupplier<T> extends Serializable {

    /** A new generator for one subtask; {@code context} gives what it may use. */
    WatermarkGenerator<T> createWatermarkGenerator(Context context);

    /** What a generator may use while it is created: the operator's metrics and a clock for idleness. */
    interface Context {

        /** The metric group of the operator that generates watermarks. */
        MetricGroup getMetricGroup();

        /**
         * The clock against which input activity is measured (e.g. for idleness timeouts): it advances
         * with processing time.
         */
        RelativeClock getInputActivityClock();

        /**
         * Runnel's former way to read the clock; the same as {@code getInputActivityClock().relativeTimeMillis()}.
         *
         * @deprecated use {@link #getInputActivityClock()}, as Flink does
         */
        @Deprecated
        default long currentProcessingTime() {
            return getInputActivityClock().relativeTimeMillis();
        }
    }
}
