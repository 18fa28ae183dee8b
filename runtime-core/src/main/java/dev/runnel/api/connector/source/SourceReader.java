package dev.runnel.api.connector.source;

import dev.runnel.core.io.InputStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * Reads the splits assigned to one source subtask. Every method runs on the subtask's task thread,
 * in this order: {@link #start()}, then any interleaving of {@link #pollNext}, {@link #addSplits},
 * {@link #notifyNoMoreSplits()} and {@link #snapshotState}, then {@link #close()}.
 *
 * <p>{@link #pollNext} must not block: it emits what it has (ideally one record) and says whether
 * more is available. When it returns {@link InputStatus#NOTHING_AVAILABLE} the task waits on
 * {@link #isAvailable()}.
 */
public interface SourceReader<T, SplitT extends SourceSplit> extends AutoCloseable {

    void start();

    InputStatus pollNext(ReaderOutput<T> output) throws Exception;

    /** Completes when {@link #pollNext} may have data again. */
    CompletableFuture<Void> isAvailable();

    void addSplits(List<SplitT> splits);

    /** The enumerator will send no more splits: once the assigned ones are read, the reader ends. */
    void notifyNoMoreSplits();

    /** The state of the splits not finished yet, for a checkpoint. */
    List<SplitT> snapshotState(long checkpointId);

    /** Checkpoint {@code checkpointId} completed (a reader may now acknowledge what it covers upstream). */
    default void notifyCheckpointComplete(long checkpointId) throws Exception {}

    @Override
    void close() throws Exception;
}
