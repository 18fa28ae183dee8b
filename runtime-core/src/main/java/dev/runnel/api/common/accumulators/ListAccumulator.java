package dev.runnel.api.common.accumulators;

import java.util.ArrayList;

/**
 * Collects every value added, in each subtask's order; merging appends the other subtask's list, so
 * the merged list holds all values with no order between subtasks. The values must be
 * serializable. Keeps everything in memory: for small results only. Not thread-safe: one instance
 * per subtask, used on its task thread.
 *
 * @param <T> the type of the values
 */
public final class ListAccumulator<T> implements Accumulator<T, ArrayList<T>> {

    private static final long serialVersionUID = 1L;

    private ArrayList<T> values = new ArrayList<>();

    @Override
    public void add(T value) {
        values.add(value);
    }

    /** The live list (not a copy). */
    @Override
    public ArrayList<T> getLocalValue() {
        return values;
    }

    @Override
    public void resetLocal() {
        values.clear();
    }

    @Override
    public void merge(Accumulator<T, ArrayList<T>> other) {
        values.addAll(other.getLocalValue());
    }

    @Override
    public ListAccumulator<T> clone() {
        ListAccumulator<T> copy = new ListAccumulator<>();
        copy.values = new ArrayList<>(values);
        return copy;
    }

    @Override
    public String toString() {
        return "List Accumulator " + values;
    }
}
