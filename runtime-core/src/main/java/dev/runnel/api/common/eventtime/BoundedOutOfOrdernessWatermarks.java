package dev.runnel.api.common.eventtime;

import java.time.Duration;

/**
 * Periodically emits {@code maxTimestampSeen - outOfOrderness - 1}: records may arrive up to
 * {@code outOfOrderness} late without being late. The same rule as Flink, so windows fire at the same
 * points.
 */
public class BoundedOutOfOrdernessWatermarks<T> implements WatermarkGenerator<T> {

    private final long outOfOrdernessMillis;
    private long maxTimestamp;

    public BoundedOutOfOrdernessWatermarks(Duration maxOutOfOrderness) {
        if (maxOutOfOrderness == null || maxOutOfOrderness.isNegative()) {
            throw new IllegalArgumentException("maxOutOfOrderness must be a non-negative duration, was " + maxOutOfOrderness);
        }
        this.outOfOrdernessMillis = maxOutOfOrderness.toMillis();
        // Start so that the first watermark is Long.MIN_VALUE, never below it.
        this.maxTimestamp = Long.MIN_VALUE + outOfOrdernessMillis + 1;
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        if (eventTimestamp > maxTimestamp) {
            maxTimestamp = eventTimestamp;
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        output.emitWatermark(new Watermark(maxTimestamp - outOfOrdernessMillis - 1));
    }
}
