package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.state.CheckpointListener;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import java.io.Serializable;

/**
 * A step of a job at run time, one instance per subtask. The engine calls, on the task thread:
 * {@link #setup}, {@link #initializeState()}, {@link #open()}, then records and watermarks (see the
 * input interfaces), {@link #finish()} at the end of the input, and {@link #close()} always — also
 * after a failure.
 *
 * <p>Operators are serializable prototypes: the job holds one, and each subtask works on its own copy.
 */
public interface StreamOperator<OUT> extends CheckpointListener, Serializable {

    /** Connects the operator to its subtask: output, configuration, services. */
    void setup(StreamOperatorParameters<OUT> parameters);

    /** Creates (or restores) keyed state and timer services. */
    void initializeState() throws Exception;

    void open() throws Exception;

    /** No more input will come: emit what is buffered. Outputs stay usable. */
    void finish() throws Exception;

    /**
     * A checkpoint barrier reached the task and is about to be forwarded: emit what is buffered and belongs
     * before the barrier (a sink writer flushes and prepares its commit). May emit.
     */
    default void prepareSnapshotPreBarrier(long checkpointId) throws Exception {}

    /**
     * The synchronous phase of checkpoint {@code checkpointId}, between two records on the task thread:
     * brings user state up to date (the function's and operator's own {@code snapshotState}), then captures
     * keyed and operator state for the asynchronous phase to write. Must not emit.
     */
    OperatorSnapshotFutures snapshotState(long checkpointId, long timestamp, CheckpointOptions options)
            throws Exception;

    /** Releases resources; must not emit. */
    void close() throws Exception;

    /** The name of the operator as the user gave it. */
    String getOperatorName();
}
