package dev.runnel.runtime.state;

import dev.runnel.api.common.state.KeyedStateStore;
import dev.runnel.api.common.state.OperatorStateStore;

/**
 * What an operator or function sees when its state is created or restored: whether it is restored from a
 * checkpoint or savepoint, and the stores to register its states with.
 */
public interface ManagedInitializationContext {

    /** True when restoring from a checkpoint or savepoint (even if this subtask received no state). */
    boolean isRestored();

    /** The checkpoint restored from, or empty on a fresh start. */
    default java.util.OptionalLong getRestoredCheckpointId() {
        return java.util.OptionalLong.empty();
    }

    OperatorStateStore getOperatorStateStore();

    /** The keyed state store; null when the operator is not keyed. */
    KeyedStateStore getKeyedStateStore();
}
