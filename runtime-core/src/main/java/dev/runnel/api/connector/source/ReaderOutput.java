package dev.runnel.api.connector.source;

import dev.runnel.api.common.eventtime.Watermark;

/**
 * Where a {@link SourceReader} emits records. Timestamps given here are the records' source
 * timestamps; the job's watermark strategy may replace them. Task thread only.
 */
public interface ReaderOutput<T> {

    void collect(T record);

    void collect(T record, long timestamp);

    /** Emits a watermark directly (most sources leave watermarks to the strategy). */
    void emitWatermark(Watermark watermark);

    void markIdle();

    void markActive();
}
