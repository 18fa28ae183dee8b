package dev.runnel.runtime.rest.handler;

import dev.runnel.api.common.JobID;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.function.Supplier;

/**
 * The asynchronous operations the REST API triggered (savepoint, stop, rescale), by kind, job and Flink's trigger
 * id (32 hex digits), so that {@code GET .../:triggerid} can report them. Triggering again with a trigger id
 * already known returns the known operation instead of starting a second one (Flink's idempotent triggers).
 * Keeps the {@value #CAPACITY} most recent operations. Thread-safe.
 */
public final class AsyncOperations {

    static final int CAPACITY = 1024;

    /** Which operation; its name appears in the "not found" message. */
    public enum Kind {
        SAVEPOINT("savepoint"), RESCALE("rescaling");

        final String description;

        Kind(String description) {
            this.description = description;
        }
    }

    private record Key(Kind kind, JobID jobId, String triggerId) {}

    private final Map<Key, CompletableFuture<String>> operations = new LinkedHashMap<>(16, 0.75f, false) {
        private static final long serialVersionUID = 1L;

        @Override
        protected boolean removeEldestEntry(Map.Entry<Key, CompletableFuture<String>> eldest) {
            return size() > CAPACITY;
        }
    };

    /** Starts {@code operation} under {@code triggerId}, unless that trigger id is known already. */
    public synchronized CompletableFuture<String> trigger(Kind kind, JobID jobId, String triggerId,
            Supplier<CompletableFuture<String>> operation) {
        Key key = new Key(kind, jobId, triggerId);
        CompletableFuture<String> known = operations.get(key);
        if (known != null) {
            return known;
        }
        CompletableFuture<String> started = operation.get();
        operations.put(key, started);
        return started;
    }

    public synchronized Optional<CompletableFuture<String>> get(Kind kind, JobID jobId, String triggerId) {
        return Optional.ofNullable(operations.get(new Key(kind, jobId, triggerId)));
    }

    public static String newTriggerId() {
        return JobID.generate().toHexString();
    }
}
