package dev.runnel.runtime.state;

import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.ReadOnlyBroadcastState;
import java.util.AbstractMap;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * One broadcast state of one subtask: a map on the heap. {@link #readOnly()} is the view the non-broadcast
 * side gets; every change through it throws, with a message that says why. Task thread only.
 */
public final class HeapBroadcastState<K, V> implements BroadcastState<K, V> {

    private final String name;
    private final Map<K, V> map = new HashMap<>();
    private final ReadOnlyBroadcastState<K, V> readOnly = new ReadOnlyView();

    HeapBroadcastState(String name) {
        this.name = name;
    }

    /** The view for the non-broadcast side: reads work, changes throw. */
    public ReadOnlyBroadcastState<K, V> readOnly() {
        return readOnly;
    }

    /** The state's name. */
    public String getName() {
        return name;
    }

    /** The map itself, for snapshots; task thread only. */
    Map<K, V> map() {
        return map;
    }

    @Override
    public V get(K key) {
        return map.get(key);
    }

    @Override
    public boolean contains(K key) {
        return map.containsKey(key);
    }

    @Override
    public Iterable<Map.Entry<K, V>> immutableEntries() {
        return () -> Collections.unmodifiableMap(map).entrySet().stream()
                .<Map.Entry<K, V>>map(e -> new AbstractMap.SimpleImmutableEntry<>(e.getKey(), e.getValue()))
                .iterator();
    }

    @Override
    public void put(K key, V value) {
        map.put(key, value);
    }

    @Override
    public void putAll(Map<K, V> entries) {
        map.putAll(entries);
    }

    @Override
    public void remove(K key) {
        map.remove(key);
    }

    @Override
    public Iterator<Map.Entry<K, V>> iterator() {
        return map.entrySet().iterator();
    }

    @Override
    public Iterable<Map.Entry<K, V>> entries() {
        return map.entrySet();
    }

    @Override
    public void clear() {
        map.clear();
    }

    /**
     * Reads the map; changing it fails. Implements {@link BroadcastState} only so that a cast gets a clear
     * error instead of a silent change on one subtask.
     */
    private final class ReadOnlyView implements BroadcastState<K, V> {

        private UnsupportedOperationException readOnly(String what) {
            return new UnsupportedOperationException("Cannot " + what + " broadcast state '" + name
                    + "' in processElement(): the non-broadcast side may only read it. Change it in"
                    + " processBroadcastElement(), which every parallel instance runs for every broadcast element,"
                    + " so that all copies stay equal.");
        }

        @Override
        public V get(K key) {
            return map.get(key);
        }

        @Override
        public boolean contains(K key) {
            return map.containsKey(key);
        }

        @Override
        public Iterable<Map.Entry<K, V>> immutableEntries() {
            return HeapBroadcastState.this.immutableEntries();
        }

        @Override
        public void put(K key, V value) {
            throw readOnly("put into");
        }

        @Override
        public void putAll(Map<K, V> entries) {
            throw readOnly("put into");
        }

        @Override
        public void remove(K key) {
            throw readOnly("remove from");
        }

        @Override
        public Iterator<Map.Entry<K, V>> iterator() {
            throw readOnly("iterate (with removal) over");
        }

        @Override
        public Iterable<Map.Entry<K, V>> entries() {
            throw readOnly("get the changeable entries of");
        }

        @Override
        public void clear() {
            throw readOnly("clear");
        }
    }
}
