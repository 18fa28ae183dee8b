package dev.runnel.connector.file.src.impl;

import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.connector.file.src.FileSourceSplit;
import dev.runnel.core.fs.Path;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.Queue;

/**
 * The enumerator of a bounded file source: lists the input files once, when it starts (so a missing
 * input path fails the job right away, naming the path), then hands out one file per split request,
 * in listing order, and answers "no more splits" when none are left. A restored enumerator does not
 * list again; it hands out the splits of its checkpoint.
 *
 * <p>Coordinator thread only. Owns its queue of pending splits; the context belongs to the runtime.
 */
public final class StaticFileSplitEnumerator implements SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> {

    private final SplitEnumeratorContext<FileSourceSplit> context;
    private final Path[] paths;
    /** Null until {@link #start()} listed the files (or from the start, when restored). */
    private Queue<FileSourceSplit> pending;

    /** An enumerator that lists {@code paths} when it starts. */
    public StaticFileSplitEnumerator(SplitEnumeratorContext<FileSourceSplit> context, Path[] paths) {
        this.context = Objects.requireNonNull(context, "context");
        this.paths = paths.clone();
    }

    /** An enumerator that hands out {@code restored} (its checkpoint) without listing anything. */
    public StaticFileSplitEnumerator(SplitEnumeratorContext<FileSourceSplit> context,
            Collection<FileSourceSplit> restored) {
        this.context = Objects.requireNonNull(context, "context");
        this.paths = new Path[0];
        this.pending = new ArrayDeque<>(restored);
    }

    /**
     * Lists the input files (unless restored).
     *
     * @throws UncheckedIOException naming the path if an input path does not exist or cannot be listed
     */
    @Override
    public void start() {
        if (pending != null) {
            return;
        }
        try {
            pending = new ArrayDeque<>(FileEnumerator.enumerate(paths));
        } catch (IOException e) {
            throw new UncheckedIOException(e.getMessage(), e);
        }
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        if (pending == null) {
            // Listing failed (the job is failing) or start() was never called: nothing to hand out.
            return;
        }
        FileSourceSplit next = pending.poll();
        if (next != null) {
            context.assignSplit(next, subtaskId);
        } else {
            context.signalNoMoreSplits(subtaskId);
        }
    }

    @Override
    public void addSplitsBack(List<FileSourceSplit> splits, int subtaskId) {
        checkStarted();
        pending.addAll(splits);
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves, one file at a time.
    }

    @Override
    public Collection<FileSourceSplit> snapshotState(long checkpointId) {
        checkStarted();
        return new ArrayList<>(pending);
    }

    private void checkStarted() {
        if (pending == null) {
            throw new IllegalStateException("The file split enumerator has not listed its input yet (start() first)");
        }
    }

    @Override
    public void close() {}
}
