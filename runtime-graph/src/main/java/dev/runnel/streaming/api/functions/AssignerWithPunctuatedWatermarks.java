package dev.runnel.streaming.api.functions;

import dev.runnel.streaming.api.watermark.Watermark;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * Flink's pre-1.11 assigner of timestamps and of watermarks decided per record (e.g. by a marker in
 * the data), for {@code DataStream.assignTimestampsAndWatermarks(assigner)}. For each record the
 * operator first calls {@link #extractTimestamp} and emits the record with that timestamp, then calls
 * {@link #checkAndGetNextWatermark} and emits the returned watermark if it is not null and later than
 * the last one emitted (earlier or equal ones are dropped, as in Flink).
 *
 * <p>One instance per parallel subtask, called from its task thread only; both methods are called on
 * the same instance, so it may keep state between them.
 *
 * @param <T> the record type
 * @deprecated as in Flink: use {@link dev.runnel.api.common.eventtime.WatermarkStrategy} and a
 *     {@link dev.runnel.api.common.eventtime.WatermarkGenerator}
 */
@Deprecated
public interface AssignerWithPunctuatedWatermarks<T> extends TimestampAssigner<T>, Serializable {

    /**
     * The watermark to emit after {@code lastElement}, whose timestamp {@link #extractTimestamp} gave
     * as {@code extractedTimestamp}; null for none.
     */
    @Nullable
    Watermark checkAndGetNextWatermark(T lastElement, long extractedTimestamp);
}
