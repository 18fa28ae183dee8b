package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.state.ListState;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.windowing.assigners.MergingWindowAssigner;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The live merging windows of one key (sessions) and, for each, the window whose namespace holds its
 * state. When windows merge, their state is merged into the state window of one of them, so state
 * never has to move to a new namespace. Loaded from and {@link #persist() persisted} to a list state
 * of (window, state window) pairs. Task thread only.
 */
public final class MergingWindowSet<W extends Window> {

    /** Told when windows merge, before the new window is used. */
    @FunctionalInterface
    public interface MergeFunction<W> {
        /**
         * @param mergeResult the window that replaces {@code mergedWindows}
         * @param mergedWindows the windows that disappear (not including the result, if it existed)
         * @param stateWindowResult the namespace that keeps the merged state
         * @param mergedStateWindows the namespaces whose state moves into it
         */
        void merge(W mergeResult, Collection<W> mergedWindows, W stateWindowResult, Collection<W> mergedStateWindows)
                throws Exception;
    }

    private final MergingWindowAssigner<?, W> assigner;
    private final ListState<Tuple2<W, W>> state;
    private final Map<W, W> mapping = new HashMap<>();
    private final Map<W, W> initialMapping;

    public MergingWindowSet(MergingWindowAssigner<?, W> assigner, ListState<Tuple2<W, W>> state) throws Exception {
        this.assigner = assigner;
        this.state = state;
        for (Tuple2<W, W> pair : state.get()) {
            mapping.put(pair.f0, pair.f1);
        }
        this.initialMapping = new HashMap<>(mapping);
    }

    /** Writes the mapping back if it changed. */
    public void persist() throws Exception {
        if (!mapping.equals(initialMapping)) {
            List<Tuple2<W, W>> pairs = new ArrayList<>(mapping.size());
            mapping.forEach((window, stateWindow) -> pairs.add(new Tuple2<>(window, stateWindow)));
            state.update(pairs);
        }
    }

    /** The namespace holding {@code window}'s state, or null if the window is unknown. */
    public W getStateWindow(W window) {
        return mapping.get(window);
    }

    /** Forgets {@code window} (it was fired and purged, or dropped as late). */
    public void retireWindow(W window) {
        if (mapping.remove(window) == null) {
            throw new IllegalStateException("Window " + window + " is not in the merging window set");
        }
    }

    /**
     * Adds {@code newWindow}, merging it with the windows it overlaps; returns the window it ended up
     * in (itself, or the merge result). {@code mergeFunction} is told of every merge that involves
     * windows that already existed, so their state and triggers can be merged.
     */
    public W addWindow(W newWindow, MergeFunction<W> mergeFunction) throws Exception {
        List<W> windows = new ArrayList<>(mapping.keySet());
        windows.add(newWindow);
        Map<W, Collection<W>> merges = new HashMap<>();
        assigner.mergeWindows(windows, (toBeMerged, mergeResult) -> merges.put(mergeResult, new ArrayList<>(toBeMerged)));

        W resultWindow = newWindow;
        boolean mergedNewWindow = false;
        for (Map.Entry<W, Collection<W>> merge : merges.entrySet()) {
            W mergeResult = merge.getKey();
            Collection<W> mergedWindows = merge.getValue();
            if (mergedWindows.remove(newWindow)) {
                mergedNewWindow = true;
                resultWindow = mergeResult;
            }
            // Every window left in the group existed before, so it has a state window; keep the
            // first one's namespace for the merged state.
            W stateWindow = mapping.get(mergedWindows.iterator().next());
            List<W> mergedStateWindows = new ArrayList<>();
            for (W merged : mergedWindows) {
                W previous = mapping.remove(merged);
                if (previous != null) {
                    mergedStateWindows.add(previous);
                }
            }
            mapping.put(mergeResult, stateWindow);
            mergedStateWindows.remove(stateWindow);
            // A new window falling inside one existing window (without extending it) merges nothing.
            if (!(mergedWindows.contains(mergeResult) && mergedWindows.size() == 1)) {
                mergeFunction.merge(mergeResult, mergedWindows, stateWindow, mergedStateWindows);
            }
        }
        if (merges.isEmpty() || (resultWindow.equals(newWindow) && !mergedNewWindow)) {
            mapping.put(resultWindow, resultWindow);
        }
        return resultWindow;
    }

    @Override
    public String toString() {
        return "MergingWindowSet" + mapping;
    }
}
