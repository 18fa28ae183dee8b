package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateSnapshot;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The state one operator captured in the synchronous phase of a checkpoint, still to be written: its keyed
 * snapshot and its operator state snapshot, either may be null. {@link #materialize} writes both (on the
 * checkpoint's asynchronous thread); {@link #release} gives them up. Ownership as the snapshots'.
 */
public final class OperatorSnapshotFutures {

    private final KeyedStateSnapshot keyed;
    private final OperatorStateSnapshot operator;

    public OperatorSnapshotFutures(KeyedStateSnapshot keyed, OperatorStateSnapshot operator) {
        this.keyed = keyed;
        this.operator = operator;
    }

    /** Writes what was captured; releases both snapshots whether it succeeds or not. */
    public OperatorSubtaskState materialize(CheckpointStreamFactory streams) throws IOException {
        try {
            List<KeyedStateHandle> keyedHandles = new ArrayList<>(1);
            List<OperatorStateHandle> operatorHandles = new ArrayList<>(1);
            if (keyed != null) {
                keyedHandles.add(keyed.materialize(streams));
            }
            if (operator != null) {
                OperatorStateHandle handle = operator.materialize(streams);
                if (handle != null) {
                    operatorHandles.add(handle);
                }
            }
            return new OperatorSubtaskState(keyedHandles, operatorHandles);
        } finally {
            release();
        }
    }

    /** Gives up what was captured. Idempotent. */
    public void release() {
        if (keyed != null) {
            keyed.release();
        }
        if (operator != null) {
            operator.release();
        }
    }
}
