package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** One input of an operator. Task thread only. */
public interface Input<IN> {

    /** Processes one record; must not keep {@code element} (the holder is reused). */
    void processElement(StreamRecord<IN> element) throws Exception;

    /** Event time of this input advanced to {@code mark}. */
    void processWatermark(Watermark mark) throws Exception;

    /** Makes the record's key current, for keyed operators (no-op otherwise). */
    default void setKeyContextElement(StreamRecord<IN> record) throws Exception {}

    /** The input became idle (true) or active (false); only forwarded by default. */
    default void processWatermarkStatus(boolean idle) throws Exception {}
}
