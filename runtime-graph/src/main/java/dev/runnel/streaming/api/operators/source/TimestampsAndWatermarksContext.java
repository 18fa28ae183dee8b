package dev.runnel.streaming.api.operators.source;

import dev.runnel.api.common.eventtime.TimestampAssignerSupplier;
import dev.runnel.api.common.eventtime.WatermarkGeneratorSupplier;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.util.clock.RelativeClock;
import java.util.Objects;

/**
 * What the operators that apply a {@code WatermarkStrategy} (sources, {@code assignTimestampsAndWatermarks})
 * hand to it: the operator's metric group, and as input activity clock the task's processing time.
 * Implements both supplier contexts, as Flink's class of this name does.
 */
public final class TimestampsAndWatermarksContext
        implements TimestampAssignerSupplier.Context, WatermarkGeneratorSupplier.Context {

    private final MetricGroup metricGroup;
    private final RelativeClock inputActivityClock;

    public TimestampsAndWatermarksContext(MetricGroup metricGroup, RelativeClock inputActivityClock) {
        this.metricGroup = Objects.requireNonNull(metricGroup, "metricGroup");
        this.inputActivityClock = Objects.requireNonNull(inputActivityClock, "inputActivityClock");
    }

    /** A context whose clock reads {@code time}'s processing time. */
    public static TimestampsAndWatermarksContext of(MetricGroup metricGroup, ProcessingTimeService time) {
        Objects.requireNonNull(time, "time");
        return new TimestampsAndWatermarksContext(metricGroup, new RelativeClock() {
            @Override
            public long relativeTimeMillis() {
                return time.getCurrentProcessingTime();
            }

            @Override
            public long relativeTimeNanos() {
                return time.getCurrentProcessingTime() * 1_000_000L;
            }
        });
    }

    @Override
    public MetricGroup getMetricGroup() {
        return metricGroup;
    }

    @Override
    public RelativeClock getInputActivityClock() {
        return inputActivityClock;
    }
}
