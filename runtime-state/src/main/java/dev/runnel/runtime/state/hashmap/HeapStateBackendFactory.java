package dev.runnel.runtime.state.hashmap;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;

/**
 * Makes the heap store available as {@code state.backend: heap}; registered for
 * {@link java.util.ServiceLoader} in {@code META-INF/services}. Stateless; thread-safe.
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
