package dev.runnel.runtime.state;

import java.io.IOException;

/**
 * The operator state of one subtask as it was at the synchronous phase of a checkpoint, to be written out
 * later on another thread. Threads and ownership as {@link KeyedStateSnapshot}: materialize once, or
 * release.
 */
public interface OperatorStateSnapshot {

    /** Writes the state as one exclusive blob; null if the operator has no operator state. */
    OperatorStateHandle materialize(CheckpointStreamFactory streams) throws IOException;

    /** Gives the snapshot up. */
    void release();
}
