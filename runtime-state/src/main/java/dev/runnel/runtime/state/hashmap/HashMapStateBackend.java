package dev.runnel.runtime.state.hashmap;

import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.heap.HeapKeyedStateBackend;

/**
 * The state backend that keeps keyed state and timers as objects on the JVM heap (Flink's name for
 * it): fastest access, bounded by the heap. Chosen with {@code env.setStateBackend(new
 * HashMapStateBackend())} or {@code state.backend: heap}.
 *
 * <p>Stateless and serializable; thread-safe. Each call creates an independent
 * {@link HeapKeyedStateBackend} for one operator subtask, restored from the parameters' snapshots.
 */
public final class HashMapStateBackend implements StateBackend {

    private static final long serialVersionUID = 1L;

    /** The configuration name of this backend. */
    public static final String NAME = "heap";

    @Override
    public String getName() {
        return NAME;
    }

    @Override
    public <K> KeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> parameters) throws Exception {
        return new HeapKeyedStateBackend<>(parameters);
    }

    @Override
    public String toString() {
        return "HashMapStateBackend";
    }
}
