package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.state.StateDescriptor;

/**
 * The kinds of column family a RocksDB backend keeps, with the kind codes of the snapshot format
 * ({@code dev.runnel.runtime.state.snapshot}), which also say how each kind's values are laid out.
 */
public enum RocksDBStateKind {
    VALUE(0),
    LIST(1),
    REDUCING(2),
    AGGREGATING(3),
    MAP(4),
    PRIORITY_QUEUE(5);

    private final int code;

    RocksDBStateKind(int code) {
        this.code = code;
    }

    /** The kind's code in the snapshot format. */
    public int code() {
        return code;
    }

    public static RocksDBStateKind of(StateDescriptor.Type type) {
        return switch (type) {
            case VALUE -> VALUE;
            case LIST -> LIST;
            case REDUCING -> REDUCING;
            case AGGREGATING -> AGGREGATING;
            case MAP -> MAP;
        };
    }

    /** The kind with snapshot code {@code code}, or null if there is none. */
    public static RocksDBStateKind ofCode(int code) {
        for (RocksDBStateKind kind : values()) {
            if (kind.code == code) {
                return kind;
            }
        }
        return null;
    }
}
