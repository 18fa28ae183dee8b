package dev.runnel.streaming.api.functions;

/**
 * Flink's pre-1.11 timestamp assigner, at its old package path: the common base of
 * {@link AssignerWithPeriodicWatermarks} and {@link AssignerWithPunctuatedWatermarks}. It adds
 * nothing to {@link dev.runnel.api.common.eventtime.TimestampAssigner}.
 *
 * @param <T> the record type
 * @deprecated as in Flink: use {@link dev.runnel.api.common.eventtime.WatermarkStrategy} with a
 *     {@link dev.runnel.api.common.eventtime.TimestampAssigner}
 */
@Deprecated
public interface TimestampAssigner<T> extends dev.runnel.api.common.eventtime.TimestampAssigner<T> {}
