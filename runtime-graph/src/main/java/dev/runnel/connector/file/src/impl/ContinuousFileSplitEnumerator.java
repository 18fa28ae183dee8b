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
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Queue;
import java.util.Set;

/**
 * The enumerator of a file source that watches its input paths
 * ({@code FileSource...monitorContinuously(interval)}): lists them when it starts and again every
 * interval, and hands out each file it has not seen before as one split, to readers that asked for
 * one. It never signals "no more splits", so the source never ends (as in Flink). A file is read once,
 * by path: data appended to a file after it was listed is not read.
 *
 * <p>Its checkpoint is a collection of splits, as the static enumerator's: the pending (not yet
 * assigned) splits, plus one split per file already handed out, positioned at its end (offset ==
 * size). A restored enumerator hands out the pending ones again and remembers every path, so no file
 * is read twice after a restore.
 *
 * <p>Coordinator thread only (the periodic listing runs there too, through
 * {@link SplitEnumeratorContext#callAsync}). A path that disappears, or cannot be listed, fails the
 * job naming it.
 */
public final class ContinuousFileSplitEnumerator
        implements SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> {

    private final SplitEnumeratorContext<FileSourceSplit> context;
    private final Path[] paths;
    private final long intervalMillis;
    /** Every file seen, in discovery order, to the split that marks it as handed out (at its end). */
    private final Map<Path, FileSourceSplit> seen = new LinkedHashMap<>();
    private final Queue<FileSourceSplit> pending = new ArrayDeque<>();
    /** Readers that asked for a split while none was pending. */
    private final Set<Integer> waiting = new LinkedHashSet<>();

    /**
     * @param restored a checkpoint of this enumerator (see the class comment), or empty for a fresh start
     * @throws IllegalArgumentException if the interval is not positive
     */
    public ContinuousFileSplitEnumerator(SplitEnumeratorContext<FileSourceSplit> context, Path[] paths,
            long intervalMillis, Collection<FileSourceSplit> restored) {
        this.context = Objects.requireNonNull(context, "context");
        this.paths = paths.clone();
        if (intervalMillis <= 0) {
            throw new IllegalArgumentException("The discovery interval must be positive, not " + intervalMillis + " ms");
        }
        this.intervalMillis = intervalMillis;
        for (FileSourceSplit split : restored) {
            seen.put(split.path(), atEnd(split));
            if (split.offset() < split.fileSize()) {
                pending.add(split);
            }
        }
    }

    @Override
    public void start() {
        context.callAsync(() -> FileEnumerator.enumerate(paths), this::discovered, 0, intervalMillis);
    }

    private void discovered(List<FileSourceSplit> listed, Throwable error) {
        if (error != null) {
            throw error instanceof IOException io ? new UncheckedIOException(io.getMessage(), io)
                    : new IllegalStateException("Listing the input paths failed: " + error, error);
        }
        for (FileSourceSplit file : listed) {
            if (!seen.containsKey(file.path())) {
                // The path is the id: unique, as a file is handed out once, and stable across restores.
                FileSourceSplit split = new FileSourceSplit(file.path().toString(), file.path(), 0, file.fileSize());
                seen.put(file.path(), atEnd(split));
                pending.add(split);
            }
        }
        assignPending();
    }

    private static FileSourceSplit atEnd(FileSourceSplit split) {
        return split.updateWithCheckpointedPosition(split.fileSize());
    }

    @Override
    public void handleSplitRequest(int subtaskId, String requesterHostname) {
        waiting.add(subtaskId);
        assignPending();
    }

    private void assignPending() {
        var readers = waiting.iterator();
        while (readers.hasNext() && !pending.isEmpty()) {
            int reader = readers.next();
            readers.remove();
            if (context.registeredReaders().contains(reader)) {
                context.assignSplit(pending.poll(), reader);
            }
        }
    }

    @Override
    public void addSplitsBack(List<FileSourceSplit> splits, int subtaskId) {
        pending.addAll(splits);
        assignPending();
    }

    @Override
    public void addReader(int subtaskId) {
        // Readers ask for splits themselves, one file at a time.
    }

    @Override
    public Collection<FileSourceSplit> snapshotState(long checkpointId) {
        List<FileSourceSplit> state = new ArrayList<>(pending);
        Set<Path> pendingPaths = new LinkedHashSet<>();
        pending.forEach(split -> pendingPaths.add(split.path()));
        seen.forEach((path, done) -> {
            if (!pendingPaths.contains(path)) {
                state.add(done);
            }
        });
        return state;
    }

    @Override
    public void close() {}
}
