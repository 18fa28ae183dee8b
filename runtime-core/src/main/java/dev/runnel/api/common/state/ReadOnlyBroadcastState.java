package dev.runnel.api.common.state;

import java.util.Map;

/**
 * The view of a broadcast state that the non-broadcast side of a broadcast connection gets
 * ({@code processElement}): it may read but not change the state, so that every parallel instance keeps
 * the same copy. Any attempt to change it, {@link #clear()} included, throws
 * {@link UnsupportedOperationException}.
 *
 * <p>Task thread only; valid while the operator runs.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface ReadOnlyBroadcastState<K, V> extends State {

    /** The value under {@code key}, or null. */
    V get(K key) throws Exception;

    boolean contains(K key) throws Exception;

    /** The entries, read-only: {@code setValue} and removal throw. */
    Iterable<Map.Entry<K, V>> immutableEntries() throws Exception;
}
