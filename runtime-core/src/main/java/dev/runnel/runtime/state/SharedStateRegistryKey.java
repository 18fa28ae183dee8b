package dev.runnel.runtime.state;

import java.io.Serializable;
import java.util.Objects;

/**
 * Identifies one piece of state shared between checkpoints, the same in every checkpoint that refers to
 * it: for incremental RocksDB, the store instance's id and the SST file's name (RocksDB never reuses a
 * file number within an instance). Immutable.
 */
public final class SharedStateRegistryKey implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String key;

    public SharedStateRegistryKey(String key) {
        this.key = Objects.requireNonNull(key, "key");
    }

    /** The key for file {@code fileName} of store instance {@code backendId}. */
    public static SharedStateRegistryKey forFile(String backendId, String fileName) {
        return new SharedStateRegistryKey(backendId + "-" + fileName);
    }

    public String getKeyString() {
        return key;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof SharedStateRegistryKey other && key.equals(other.key);
    }

    @Override
    public int hashCode() {
        return key.hashCode();
    }

    @Override
    public String toString() {
        return key;
    }
}
