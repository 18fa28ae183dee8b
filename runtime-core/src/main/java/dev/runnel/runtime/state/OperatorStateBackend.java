package dev.runnel.runtime.state;

import dev.runnel.api.common.state.OperatorStateStore;
import java.io.Closeable;

/**
 * The store of one operator subtask's operator state (list, union list and broadcast state), on the heap.
 * Restored from {@link OperatorStateHandle}s (already redistributed for this subtask); snapshotted in two
 * phases like keyed state. Task thread only, except the returned snapshot.
 */
public interface OperatorStateBackend extends OperatorStateStore, Closeable {

    /** Captures every state as it is now (copying what later changes could alter). Task thread only. */
    OperatorStateSnapshot snapshotSync();

    @Override
    void close();
}
