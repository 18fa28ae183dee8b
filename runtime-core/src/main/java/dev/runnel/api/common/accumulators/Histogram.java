package dev.runnel.api.common.accumulators;

import java.util.Map;
import java.util.TreeMap;

/**
 * Counts how often each int value occurs, across all subtasks: the result maps each value seen to
 * its count, sorted by value. Values are counted exactly, not binned. Not thread-safe: one instance
 * per subtask, used on its task thread.
 */
public final class Histogram implements Accumulator<Integer, TreeMap<Integer, Integer>> {

    private static final long serialVersionUID = 1L;

    private TreeMap<Integer, Integer> counts = new TreeMap<>();

    @Override
    public void add(Integer value) {
        counts.merge(value, 1, Integer::sum);
    }

    /** The live map from value to count (not a copy). */
    @Override
    public TreeMap<Integer, Integer> getLocalValue() {
        return counts;
    }

    @Override
    public void merge(Accumulator<Integer, TreeMap<Integer, Integer>> other) {
        for (Map.Entry<Integer, Integer> entry : other.getLocalValue().entrySet()) {
            counts.merge(entry.getKey(), entry.getValue(), Integer::sum);
        }
    }

    @Override
    public void resetLocal() {
        counts.clear();
    }

    @Override
    public Histogram clone() {
        Histogram copy = new Histogram();
        copy.counts = new TreeMap<>(counts);
        return copy;
    }

    @Override
    public String toString() {
        return counts.toString();
    }
}
