package dev.runnel.runtime.minicluster;

import dev.runnel.runtime.shuffle.BrokenChannelException;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.tasks.TaskCancelledException;
import dev.runnel.streaming.runtime.tasks.TaskRestoreException;
import java.util.ArrayList;
import java.util.List;

/**
 * The failures of one attempt of a job: which of them is its cause, and the others (Flink's concurrent
 * exceptions). Failures arrive from task threads and TaskManager connections in no useful order: across
 * TaskManagers the partner of a failed task, or of a lost TaskManager, often reports its broken channel first,
 * so a later failure that explains more becomes the cause and the earlier one joins the others. A cancellation
 * that came first stays the cause: the attempt was being stopped on purpose.
 *
 * <p>Thread-safe; every method may be called from any thread.
 */
final class AttemptFailures {

    /** Concurrent failures kept beside the cause; later ones are dropped (a cause that ranks higher still wins). */
    static final int MAX_CONCURRENT = 16;

    private Throwable cause;
    private long timestamp;
    private final List<Throwable> concurrent = new ArrayList<>();

    /**
     * Adds a failure seen at {@code timestampMillis}.
     *
     * @return true for the attempt's first failure, which must stop the attempt
     */
    synchronized boolean add(Throwable failure, long timestampMillis) {
        if (cause == null) {
            cause = failure;
            timestamp = timestampMillis;
            return true;
        }
        if (failure instanceof TaskCancelledException || cause instanceof TaskCancelledException) {
            return false;
        }
        if (rank(failure) > rank(cause)) {
            failure.addSuppressed(cause);
            concurrent.add(0, cause);
            cause = failure;
        } else {
            concurrent.add(failure);
        }
        if (concurrent.size() > MAX_CONCURRENT) {
            concurrent.remove(concurrent.size() - 1);
        }
        return false;
    }

    /** The attempt's cause so far, or null while it has not failed. */
    synchronized Throwable cause() {
        return cause;
    }

    /** The attempt's failure as it stands, or null while it has not failed. */
    synchronized EmbeddedJob.Failure snapshot() {
        return cause == null ? null : new EmbeddedJob.Failure(timestamp, cause, List.copyOf(concurrent));
    }

    /**
     * How much a failure explains: 0 a broken channel (a symptom of its other end), 2 an operator's error or
     * state that cannot be restored, 1 anything else (a lost TaskManager, a failed deployment).
     */
    static int rank(Throwable failure) {
        if (failure instanceof OperatorException || failure instanceof TaskRestoreException) {
            return 2;
        }
        for (Throwable t = failure; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (t instanceof BrokenChannelException) {
                return 0;
            }
        }
        return 1;
    }
}
