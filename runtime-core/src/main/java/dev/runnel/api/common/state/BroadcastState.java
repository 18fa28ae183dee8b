package dev.runnel.api.common.state;

import java.util.Iterator;
import java.util.Map;

/**
 * A map that every parallel instance of a broadcast operator holds a copy of, changed only on the broadcast
 * side ({@code processBroadcastElement}): since every instance sees every broadcast element, the copies stay
 * equal as long as the changes depend only on the broadcast elements. It is operator state, not keyed
 * state: one map per descriptor and subtask.
 *
 * <p>Task thread only. Not part of checkpoints yet (Runnel takes none); once it is, every subtask will
 * restore the same copy.
 *
 * @param <K> the key type
 * @param <V> the value type
 */
public interface BroadcastState<K, V> extends ReadOnlyBroadcastState<K, V> {

    void put(K key, V value) throws Exception;

    void putAll(Map<K, V> map) throws Exception;

    void remove(K key) throws Exception;

    /** The entries; the iterator may remove. */
    Iterator<Map.Entry<K, V>> iterator() throws Exception;

    /** The entries, changeable through {@code setValue}. */
    Iterable<Map.Entry<K, V>> entries() throws Exception;
}
