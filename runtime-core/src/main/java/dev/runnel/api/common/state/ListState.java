package dev.runnel.api.common.state;

import java.util.List;

/**
 * A list of values per key, in insertion order. {@link #get()} of a key without values is an empty
 * iterable, never null. Null elements are rejected.
 */
public interface ListState<T> extends MergingState<T, Iterable<T>> {

    /** Replaces the current key's list with {@code values} (an empty list clears it). */
    void update(List<T> values) throws Exception;

    /** Appends all {@code values} to the current key's list. */
    void addAll(List<T> values) throws Exception;
}
