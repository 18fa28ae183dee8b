package dev.runnel.client.program;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.StateRecoveryOptions;

/**
 * What a submitted job restores from (Flink's {@code SavepointRestoreSettings}): {@code -s <path>} and
 * {@code --allowNonRestoredState}. {@code path} null restores nothing. Immutable.
 */
public record SavepointRestoreSettings(String path, boolean allowNonRestoredState) {

    public static final SavepointRestoreSettings NONE = new SavepointRestoreSettings(null, false);

    /** Writes the settings as {@code execution.state-recovery.path} / {@code ...ignore-unclaimed-state}. */
    public void applyTo(Configuration configuration) {
        if (path != null) {
            configuration.set(StateRecoveryOptions.SAVEPOINT_PATH, path);
            configuration.set(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE, allowNonRestoredState);
        }
    }
}
