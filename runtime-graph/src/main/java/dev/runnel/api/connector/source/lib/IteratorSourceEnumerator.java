package dev.runnel.api.connector.source.lib;

import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Queue;

/**
 * Hands out a fixed set of splits on request, first come first served; answers "no more splits" when
 * they are gone. Coordinator thread only.
 */
public final class IteratorSourceEnumerator<SplitT extends SourceSplit>
        implements SplitEnumerator<SplitT, Collection<SplitT>> {

    private final SplitEnumeratorContext<SplitT> context;
    private final Queue<SplitT> remaining;

    public IteratorSourceEnumerator(SplitEnumeratorContext<SplitT> context, Collection<SplitT> splits) {
        this.context = context;
        this.remaining = new ArrayDeque<>(splits);
    }

    @Override
    public void start() {}

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        SplitT next = remaining.poll();
        if (next != null) {
            context.assignSplit(next, subtaskId);
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<SplitT> splits, int subtaskId) {
        remaining.addAll(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves.
    }

    @Override
    public Collection<SplitT> snapshotState(long checkpointId) {
        return new ArrayList<>(remaining);
    }

    @Override
    public void close() {}
}
