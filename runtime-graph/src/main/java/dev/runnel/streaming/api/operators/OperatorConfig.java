package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import java.io.Serializable;
import java.util.Objects;

/**
 * How the compiler configured one operator of a chain: its identity and, for keyed operators, how to
 * find the key of each input's records and how to serialize keys. Immutable.
 *
 * @param operatorId stable id (the user's uid, or one derived from the graph), for state
 * @param name the user-facing name
 * @param keySelector1 key of input 1's records, or null when not keyed
 * @param keySelector2 key of input 2's records, or null
 * @param keySerializer serializer of the key, or null when not keyed
 * @param maxParallelism number of key groups
 */
public record OperatorConfig(
        String operatorId,
        String name,
        KeySelector<?, ?> keySelector1,
        KeySelector<?, ?> keySelector2,
        TypeSerializer<?> keySerializer,
        int maxParallelism) implements Serializable {

    public OperatorConfig {
        Objects.requireNonNull(operatorId, "operatorId");
        Objects.requireNonNull(name, "name");
        if ((keySelector1 != null || keySelector2 != null) && keySerializer == null) {
            throw new IllegalArgumentException("keyed operator '" + name + "' needs a key serializer");
        }
    }

    public boolean isKeyed() {
        return keySerializer != null;
    }
}
