package dev.runnel.runtime.state;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.configuration.Configuration;
import java.io.File;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * Everything a {@link StateBackend} needs to create the keyed state of one operator subtask.
 *
 * @param operatorIdentifier unique within the job, stable across runs (used for directory names)
 * @param operatorName for messages
 * @param subtaskIndex the subtask this backend serves
 * @param keySerializer serializer of the operator's key
 * @param numberOfKeyGroups the max parallelism
 * @param keyGroupRange the key groups this subtask owns
 * @param restoreState snapshots to restore from; only their key groups within the range are read
 * @param serializerConfig for state descriptors' types
 * @param configuration TaskManager/job configuration (memory, directories)
 * @param localDirectories where on-disk stores may put working files
 * @param ttlTimeProvider the clock for state time-to-live
 */
public record KeyedStateBackendParameters<K>(
        String operatorIdentifier,
        String operatorName,
        int subtaskIndex,
        TypeSerializer<K> keySerializer,
        int numberOfKeyGroups,
        KeyGroupRange keyGroupRange,
        Collection<KeyedStateHandle> restoreState,
        SerializerConfig serializerConfig,
        Configuration configuration,
        List<File> localDirectories,
        TtlTimeProvider ttlTimeProvider) {

    public KeyedStateBackendParameters {
        Objects.requireNonNull(operatorIdentifier, "operatorIdentifier");
        Objects.requireNonNull(keySerializer, "keySerializer");
        Objects.requireNonNull(keyGroupRange, "keyGroupRange");
        restoreState = List.copyOf(restoreState == null ? List.of() : restoreState);
        Objects.requireNonNull(serializerConfig, "serializerConfig");
        configuration = configuration == null ? new Configuration() : configuration;
        localDirectories = List.copyOf(localDirectories == null ? List.of() : localDirectories);
        ttlTimeProvider = ttlTimeProvider == null ? TtlTimeProvider.DEFAULT : ttlTimeProvider;
        KeyGroupRangeAssignment.checkMaxParallelism(numberOfKeyGroups);
        if (keyGroupRange.getNumberOfKeyGroups() > 0 && keyGroupRange.getEndKeyGroup() >= numberOfKeyGroups) {
            throw new IllegalArgumentException("key group range " + keyGroupRange + " exceeds the "
                    + numberOfKeyGroups + " key groups of operator " + operatorName);
        }
    }
}
