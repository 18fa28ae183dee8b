package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.TwoPhaseSnapshotTestBase;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;

/** The two-phase snapshot suite against the heap store (copy-on-write tables). */
class HeapTwoPhaseSnapshotTest extends TwoPhaseSnapshotTestBase {

    @Override
    protected StateBackend backend() {
        return new HashMapStateBackend();
    }
}
