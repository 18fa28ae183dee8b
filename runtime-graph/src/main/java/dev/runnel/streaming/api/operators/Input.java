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

    /**
     * The input became idle (true: its watermark must not hold back event time) or active again (false).
     * No default: an operator decides what idleness means for it. {@link AbstractStreamOperator} forwards
     * the status to its output, as Flink's operators do.
     */
    void processWatermarkStatus(boolean idle) throws Exception;
}
