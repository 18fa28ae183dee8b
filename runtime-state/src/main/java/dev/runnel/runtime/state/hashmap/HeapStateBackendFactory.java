package dev.runnel.runtime.state.hashmap;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;

/**
 * Makes the heap store available as Flink's {@code state.backend.type: hashmap} (Runnel's older
 * {@code state.backend: heap} works too; both resolve to this factory's name {@code heap}, see
 * {@link StateBackendFactory#STATE_BACKEND}); registered for {@link java.util.ServiceLoader} in
 * {@code META-INF/services}. Stateless; thread-safe.
 */
public final class HeapStateBackendFactory implements StateBackendFactory {

    @Override
    public String name() {
        return HashMapStateBackend.NAME;
    }

    @Override
    public StateBackend createFromConfig(Configuration configuration) {
        return new HashMapStateBackend();
    }
}
