package dev.runnel.api.connector.source.lib;

import dev.runnel.core.io.InputStatus;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * Reads {@link IteratorSourceSplit}s one after another, one record per poll, asking the enumerator
 * for the next split whenever it runs out. Ends when the enumerator says there are no more.
 * Task thread only.
 */
public final class IteratorSourceReader<E, I extends Iterator<E>, SplitT extends IteratorSourceSplit<E, I>>
        implements SourceReader<E, SplitT> {

    private final SourceReaderContext context;
    private final Queue<SplitT> pending = new ArrayDeque<>();
    private CompletableFuture<Void> availability = new CompletableFuture<>();
    private I iterator;
    private SplitT current;
    private boolean noMoreSplits;
    private boolean requested;

    public IteratorSourceReader(SourceReaderContext context) {
        this.context = context;
    }

    @Override
    public void start() {
        request();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<E> output) {
        if (iterator != null && iterator.hasNext()) {
            output.collect(iterator.next());
            return InputStatus.MORE_AVAILABLE;
        }
        return advanceSplit(output);
    }

    private InputStatus advanceSplit(ReaderOutput<E> output) {
        iterator = null;
        current = null;
        SplitT next = pending.poll();
        if (next != null) {
            current = next;
            iterator = next.getIterator();
            return InputStatus.MORE_AVAILABLE;
        }
        if (noMoreSplits) {
            return InputStatus.END_OF_INPUT;
        }
        request();
        if (availability.isDone()) {
            availability = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    private void request() {
        if (!requested) {
            requested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return availability;
    }

    @Override
    public void addSplits(List<SplitT> splits) {
        pending.addAll(splits);
        requested = false;
        availability.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        availability.complete(null);
    }

    @Override
    @SuppressWarnings("unchecked")
    public List<SplitT> snapshotState(long checkpointId) {
        List<SplitT> state = new ArrayList<>();
        if (current != null && iterator != null) {
            state.add((SplitT) current.getUpdatedSplitForIterator(iterator));
        }
        state.addAll(pending);
        return state;
    }

    @Override
    public void close() {}
}
