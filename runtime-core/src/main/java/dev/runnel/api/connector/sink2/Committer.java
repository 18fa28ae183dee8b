package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.util.Collection;

/**
 * The second phase of a two-phase commit: makes what a {@link CommittingSinkWriter} staged visible, once the
 * checkpoint it was staged for is complete.
 *
 * <p>Contract:
 * <ul>
 *   <li>Called on the task thread of the sink's subtask; never concurrently with that subtask's writer.
 *   <li>{@link #commit} gets the committables of every completed checkpoint not committed yet (of checkpoints
 *       up to the one just completed, and at the end of a bounded input all that are left).
 *   <li><b>A commit must be idempotent.</b> After a failure the job restores the committables of its last
 *       completed checkpoint and commits them again, even if some were already committed before the failure.
 *       A committer recognises those (the file was already renamed, the transaction already committed) and
 *       either does nothing or calls {@link CommitRequest#signalAlreadyCommitted()}.
 *   <li>Each request that the committer does not signal otherwise counts as committed when {@code commit}
 *       returns. An exception from {@code commit} fails the subtask (and with it the job, or its restart).
 * </ul>
 *
 * @param <CommT> the committable type
 */
public interface Committer<CommT> extends AutoCloseable {

    /** Commits the given requests; signal per request anything but success (see {@link CommitRequest}). */
    void commit(Collection<CommitRequest<CommT>> committables) throws IOException, InterruptedException;

    /**
     * One committable to commit and the committer's verdict on it. At most one signal per attempt; the last
     * one wins. Valid only during the {@link #commit} call that received it.
     *
     * @param <CommT> the committable type
     */
    interface CommitRequest<CommT> {

        /** What to commit. */
        CommT getCommittable();

        /** How many attempts to commit it were made before this one and asked to retry. */
        int getNumberOfRetries();

        /**
         * The commit failed for a reason the committer understands and that retrying cannot fix (a transaction
         * that timed out): the committable is dropped with a warning, and the job goes on.
         */
        void signalFailedWithKnownReason(Throwable t);

        /** The commit failed and the committer cannot tell why: the subtask fails with {@code t}. */
        void signalFailedWithUnknownReason(Throwable t);

        /**
         * The commit should be tried again: at the next completed checkpoint, or right away (up to a bounded
         * number of times) at the end of a bounded input.
         */
        void retryLater();

        /** As {@link #retryLater()}, trying {@code committable} instead next time. */
        void updateAndRetryLater(CommT committable);

        /** The committable had already been committed (typically by the attempt before a failure). */
        void signalAlreadyCommitted();
    }
}
