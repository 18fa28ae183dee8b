package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.runtime.io.RecordBatch;
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
     * How many records {@link #prepareKeyContexts} takes at once; 0 (the default) when this input has
     * no use for it, so that the task never calls it. Asked once, after the operator is opened.
     */
    default int keyContextGroupSize() {
        return 0;
    }

    /**
     * Announces the next {@code count} records of {@code batch} from {@code from} (at most
     * {@link #keyContextGroupSize()}), in the order in which {@link #setKeyContextElement} will be called for
     * them: a keyed operator selects their keys now and lets its state backend read ahead for all of them at
     * once (see {@code KeyedStateBackend#prefetch}). When the batch came over a keyBy edge in memory it also
     * carries the keys' hash codes and key groups as the sender computed them ({@link RecordBatch#keyGroupsOf()}),
     * and the operator takes those instead of hashing the keys again. The batch is the caller's: read it during
     * the call only.
     */
    default void prepareKeyContexts(RecordBatch batch, int from, int count) throws Exception {}

    /**
     * The input became idle (true: its watermark must not hold back event time) or active again (false).
     * No default: an operator decides what idleness means for it. {@link AbstractStreamOperator} forwards
     * the status to its output, as Flink's operators do.
     */
    void processWatermarkStatus(boolean idle) throws Exception;
}
