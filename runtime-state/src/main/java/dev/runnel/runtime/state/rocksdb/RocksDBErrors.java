package dev.runnel.runtime.state.rocksdb;

import java.io.IOException;
import java.io.UncheckedIOException;
import org.rocksdb.RocksDBException;
import org.rocksdb.Status;

/**
 * Turns a {@link RocksDBException} into an {@link IOException} that says what Runnel was doing, on
 * which state, and keeps RocksDB's own status message (the part that says what went wrong), with the
 * original exception as the cause. Stateless.
 */
public final class RocksDBErrors {

    private RocksDBErrors() {}

    /**
     * @param operation what was attempted, completing "RocksDB failed to ...", e.g. {@code "read state"}
     * @param stateName the state or timer queue concerned (quoted after the operation), or null
     */
    public static IOException wrap(String operation, String stateName, RocksDBException e) {
        return new IOException(message(operation, stateName, e), e);
    }

    /** As {@link #wrap}, for callers whose interface cannot throw checked exceptions. */
    public static UncheckedIOException wrapUnchecked(String operation, String stateName, RocksDBException e) {
        return new UncheckedIOException(wrap(operation, stateName, e));
    }

    private static String message(String operation, String stateName, RocksDBException e) {
        StringBuilder message = new StringBuilder("RocksDB failed to ").append(operation);
        if (stateName != null) {
            message.append(" '").append(stateName).append('\'');
        }
        message.append(": ").append(e.getMessage());
        Status status = e.getStatus();
        if (status != null && status.getCode() != null) {
            message.append(" [status ").append(status.getCodeString()).append(']');
        }
        return message.toString();
    }
}
