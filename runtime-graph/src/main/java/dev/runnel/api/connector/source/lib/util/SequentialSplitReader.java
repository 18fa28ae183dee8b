package dev.runnel.api.connector.source.lib.util;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.core.io.InputStatus;
import java.io.IOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * A source reader that reads its splits one after another, one record per poll, and asks the
 * enumerator for the next split whenever it has none left; it ends once the enumerator says there
 * are no more. This class keeps the queue of assigned splits, the request to the enumerator and the
 * availability future; a subclass says how to open a split, read one record of it, snapshot it and
 * close it.
 *
 * <p>Task thread only, like every {@link SourceReader}. Owns the split being read; the subclass owns
 * what it opened for it (a stream, an iterator) until {@link #closeSplit} is called.
 *
 * @param <T> the record type
 * @param <SplitT> the split type
 */
public abstract class SequentialSplitReader<T, SplitT extends SourceSplit> implements SourceReader<T, SplitT> {

    private final SourceReaderContext context;
    private final Queue<SplitT> pending = new ArrayDeque<>();
    private CompletableFuture<Void> availability = new CompletableFuture<>();
    /** The split being read, or null between splits. */
    private SplitT current;
    private boolean noMoreSplits;
    /** A split was requested and none has arrived since; asking again would only queue duplicates. */
    private boolean requested;

    /** @param context the subtask's context, for split requests; not null */
    protected SequentialSplitReader(SourceReaderContext context) {
        this.context = Objects.requireNonNull(context, "context");
    }

    /** Prepares to read {@code split} from its recorded position; on failure nothing stays open. */
    protected abstract void openSplit(SplitT split) throws IOException;

    /** Emits the next record of {@code split}, the one opened last; false when the split is exhausted. */
    protected abstract boolean emitNext(SplitT split, ReaderOutput<T> output) throws IOException;

    /** {@code split} as far as read: resuming from it emits exactly the records not emitted yet. */
    protected abstract SplitT snapshotSplit(SplitT split);

    /** Releases what {@link #openSplit} opened. */
    protected abstract void closeSplit() throws IOException;

    @Override
    public final void start() {
        requestSplit();
    }

    @Override
    public final InputStatus pollNext(ReaderOutput<T> output) throws IOException {
        if (current != null) {
            if (emitNext(current, output)) {
                return InputStatus.MORE_AVAILABLE;
            }
            finishCurrent();
        }
        SplitT next = pending.poll();
        if (next != null) {
            openSplit(next);
            current = next;
            return InputStatus.MORE_AVAILABLE;
        }
        if (noMoreSplits) {
            return InputStatus.END_OF_INPUT;
        }
        requestSplit();
        if (availability.isDone()) {
            availability = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    @Override
    public final CompletableFuture<Void> isAvailable() {
        return availability;
    }

    @Override
    public final void addSplits(List<SplitT> splits) {
        pending.addAll(splits);
        requested = false;
        availability.complete(null);
    }

    @Override
    public final void notifyNoMoreSplits() {
        noMoreSplits = true;
        availability.complete(null);
    }

    /** The split being read, at the position after the last emitted record, then the splits not started. */
    @Override
    public final List<SplitT> snapshotState(long checkpointId) {
        List<SplitT> state = new ArrayList<>();
        if (current != null) {
            state.add(snapshotSplit(current));
        }
        state.addAll(pending);
        return state;
    }

    @Override
    public final void close() throws IOException {
        if (current != null) {
            finishCurrent();
        }
    }

    private void finishCurrent() throws IOException {
        current = null;
        closeSplit();
    }

    private void requestSplit() {
        if (!requested) {
            requested = true;
            context.sendSplitRequest();
        }
    }
}
