package dev.runnel.runtime.minicluster;

import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;
import java.util.List;

/**
 * Stands in when the configured store is not on the classpath, so that jobs without keyed state
 * still run; the first keyed operator fails with a message that says what is missing.
 */
final class MissingStateBackend implements StateBackend {

    private static final long serialVersionUID = 1L;

    private final String name;
    private final List<String> available;

    MissingStateBackend(String name, List<String> available) {
        this.name = name;
        this.available = List.copyOf(available);
    }

    @Override
    public String getName() {
        return name;
    }

    @Override
    public <K> KeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> parameters) {
        throw new IllegalStateException("Operator '" + parameters.operatorName() + "' needs keyed state, but no state "
                + "backend named '" + name + "' (" + StateBackendFactory.STATE_BACKEND.key() + ") is available; found "
                + available + ". Put runtime-state on the classpath or set " + StateBackendFactory.STATE_BACKEND.key()
                + " to one of those.");
    }
}
