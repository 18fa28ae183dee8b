package dev.runnel.api.connector.source;

import java.util.concurrent.Callable;
import java.util.function.BiConsumer;

import java.util.List;
import java.util.Map;
import java.util.Set;

/** What a {@link SplitEnumerator} may ask of the runtime. Coordinator thread only. */
public interface SplitEnumeratorContext<SplitT extends SourceSplit> {

    int currentParallelism();

    /** Subtask indexes of the readers registered so far. */
    Set<Integer> registeredReaders();

    /** Gives {@code split} to reader {@code subtask}. */
    void assignSplit(SplitT split, int subtask);

    /** Gives several splits at once: subtask to splits. */
    default void assignSplits(Map<Integer, List<SplitT>> assignment) {
        assignment.forEach((subtask, splits) -> splits.forEach(s -> assignSplit(s, subtask)));
    }

    /** Tells reader {@code subtask} that no more splits will come. */
    void signalNoMoreSplits(int subtask);

    /**
     * Calls {@code callable} after {@code initialDelayMillis} and then every {@code periodMillis}
     * ({@code 0}: once), and hands each result or failure to {@code handler}, as Flink's context does;
     * e.g. a file source that watches its directories for new files. Both run on the coordinator
     * thread (where every enumerator call runs), so they may touch the enumerator's state without
     * locking; keep the callable short. A handler that throws fails the job. Calls stop when the
     * enumerator is closed.
     *
     * @throws UnsupportedOperationException if this context cannot schedule calls (the default; the
     *     runtime's context can)
     */
    default <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelayMillis,
            long periodMillis) {
        throw new UnsupportedOperationException(getClass().getName() + " cannot schedule calls (callAsync)");
    }

    /** {@link #callAsync(Callable, BiConsumer, long, long)} once, as soon as possible. */
    default <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler) {
        callAsync(callable, handler, 0, 0);
    }
}
