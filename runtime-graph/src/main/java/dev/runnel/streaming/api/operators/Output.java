package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/**
 * Where an operator sends its results: to the next operator of its chain (a direct call), to the
 * network, or to several of those. Side outputs go to the consumers of their {@link OutputTag}.
 *
 * <p>Task thread only. The record passed in may be reused by the caller once the call returns.
 */
public interface Output<T> {

    void collect(StreamRecord<T> record);

    /** Sends a record to side output {@code outputTag}; dropped if nobody consumes that side output. */
    <X> void collect(OutputTag<X> outputTag, StreamRecord<X> record);

    void emitWatermark(Watermark watermark);

    /** Forwards an idle (true) or active (false) status change downstream. */
    void emitWatermarkStatus(boolean idle);

    /** Flushes anything buffered on the network side. */
    void close();
}
