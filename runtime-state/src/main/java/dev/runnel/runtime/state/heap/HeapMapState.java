package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.internal.InternalMapState;
import java.util.Collections;
import java.util.HashMap;
import java.util.Iterator;
import java.util.Map;

/**
 * Heap {@link dev.runnel.api.common.state.MapState}: each key's map is a {@link HashMap}, so iteration
 * is in hash order. Null user keys are rejected; null values are allowed. A map that becomes empty is
 * removed, so {@code getKeys} and snapshots never see empty maps.
 *
 * <p>Task thread only. Iterators support {@code remove()}; the map must not otherwise change while
 * iterating.
 */
final class HeapMapState<K, N, UK, UV> extends AbstractHeapState<K, N, Map<UK, UV>>
        implements InternalMapState<K, N, UK, UV> {

    HeapMapState(StateTable<K, N, Map<UK, UV>> table, N defaultNamespace) {
        super(table, defaultNamespace);
    }

    private Map<UK, UV> map() {
        return table.get(namespace, namespaceHash);
    }

    @Override
    public UV get(UK key) {
        Map<UK, UV> map = map();
        return map == null ? null : map.get(key);
    }

    @Override
    public void put(UK key, UV value) {
        checkKey(key);
        StateMap.Entry<K, N, Map<UK, UV>> entry = table.entry(namespace, namespaceHash);
        if (entry != null) {
            entry.state.put(key, value);
        } else {
            HashMap<UK, UV> map = new HashMap<>();
            map.put(key, value);
            table.insert(namespace, namespaceHash, map);
        }
    }

    @Override
    public void putAll(Map<UK, UV> values) {
        if (values == null || values.isEmpty()) {
            return;
        }
        for (UK key : values.keySet()) {
            checkKey(key);
        }
        StateMap.Entry<K, N, Map<UK, UV>> entry = table.entry(namespace, namespaceHash);
        if (entry != null) {
            entry.state.putAll(values);
        } else {
            table.insert(namespace, namespaceHash, new HashMap<>(values));
        }
    }

    @Override
    public void remove(UK key) {
        Map<UK, UV> map = map();
        if (map != null) {
            map.remove(key);
            if (map.isEmpty()) {
                clear();
            }
        }
    }

    @Override
    public boolean contains(UK key) {
        Map<UK, UV> map = map();
        return map != null && map.containsKey(key);
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> entries() {
        return this::iterator;
    }

    @Override
    public Iterable<UK> keys() {
        return () -> new Mapped<>(iterator(), true);
    }

    @Override
    public Iterable<UV> values() {
        return () -> new Mapped<>(iterator(), false);
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        Map<UK, UV> map = map();
        if (map == null) {
            return Collections.emptyIterator();
        }
        Iterator<Map.Entry<UK, UV>> it = map.entrySet().iterator();
        return new Iterator<>() {
            @Override
            public boolean hasNext() {
                return it.hasNext();
            }

            @Override
            public Map.Entry<UK, UV> next() {
                return it.next();
            }

            @Override
            public void remove() {
                it.remove();
                if (map.isEmpty()) {
                    clear();
                }
            }
        };
    }

    @Override
    public boolean isEmpty() {
        Map<UK, UV> map = map();
        return map == null || map.isEmpty();
    }

    private void checkKey(UK key) {
        if (key == null) {
            throw new NullPointerException("map state '" + table.name + "' cannot hold a null key");
        }
    }

    /** Keys or values of an entry iterator, passing removal through. */
    private static final class Mapped<UK, UV, T> implements Iterator<T> {
        private final Iterator<Map.Entry<UK, UV>> entries;
        private final boolean keys;

        Mapped(Iterator<Map.Entry<UK, UV>> entries, boolean keys) {
            this.entries = entries;
            this.keys = keys;
        }

        @Override
        public boolean hasNext() {
            return entries.hasNext();
        }

        @Override
        @SuppressWarnings("unchecked")
        public T next() {
            Map.Entry<UK, UV> e = entries.next();
            return (T) (keys ? e.getKey() : e.getValue());
        }

        @Override
        public void remove() {
            entries.remove();
        }
    }
}
