package dev.runnel.streaming.api.functions;

import dev.runnel.streaming.api.watermark.Watermark;
import java.io.Serializable;
import javax.annotation.Nullable;

/**
 * Flink's pre-1.11 assigner of timestamps and of watermarks emitted periodically, for
 * {@code DataStream.assignTimestampsAndWatermarks(assigner)}: every auto-watermark interval
 * ({@code env.getConfig().setAutoWatermarkInterval(ms)}, 200 ms by default) and at the end of the
 * input, the operator calls {@link #getCurrentWatermark} and emits the result if it is not null and
 * later than the last watermark emitted.
 *
 * <p>One instance per parallel subtask, called from its task thread only.
 *
 * @param <T> the record type
 * @deprecated as in Flink: use {@link dev.runnel.api.common.eventtime.WatermarkStrategy} and a
 *     {@link dev.runnel.api.common.eventtime.WatermarkGenerator}
 */
@Deprecated
public interface AssignerWithPeriodicWatermarks<T> extends TimestampAssigner<T>, Serializable {

    /** The watermark to emit now; null for none. */
    @Nullable
    Watermark getCurrentWatermark();
}
