package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendTestBase;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;

/** The shared state backend suite against the heap store. */
class HeapStateBackendTest extends StateBackendTestBase {

    @Override
    protected StateBackend backend() {
        return new HashMapStateBackend();
    }
}
