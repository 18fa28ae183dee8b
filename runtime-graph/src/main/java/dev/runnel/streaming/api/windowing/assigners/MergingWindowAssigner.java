package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.streaming.api.windowing.windows.Window;
import java.util.Collection;

/** An assigner whose windows can merge (sessions): overlapping windows of a key become one. */
public abstract class MergingWindowAssigner<T, W extends Window> extends WindowAssigner<T, W> {

    private static final long serialVersionUID = 1L;

    /** Finds which of {@code windows} merge and reports each merge to {@code callback}. */
    public abstract void mergeWindows(Collection<W> windows, MergeCallback<W> callback);

    /** Told of each merge: {@code toBeMerged} become {@code mergeResult}. */
    @FunctionalInterface
    public interface MergeCallback<W> {
        void merge(Collection<W> toBeMerged, W mergeResult);
    }
}
