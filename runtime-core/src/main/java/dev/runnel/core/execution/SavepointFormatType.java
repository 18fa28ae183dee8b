package dev.runnel.core.execution;

/**
 * The format of a savepoint. {@link #CANONICAL} is Runnel's backend-independent format: it restores into
 * either store (heap or RocksDB) at any parallelism. {@link #NATIVE} is the store's own (RocksDB's SST
 * files): it restores fastest, but only into the store that wrote it.
 */
public enum SavepointFormatType {
    CANONICAL,
    NATIVE;

    public static final SavepointFormatType DEFAULT = CANONICAL;
}
