package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.internal.InternalListState;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * Heap {@link dev.runnel.api.common.state.ListState}: each key's list is an {@link ArrayList}, held by
 * reference; {@link #get()} returns it (an empty list for a key without values). An empty list is
 * never stored: storing one removes the entry, as in the RocksDB store. Null elements are rejected.
 *
 * <p>Task thread only.
 */
final class HeapListState<K, N, V> extends AbstractHeapMergingState<K, N, List<V>>
        implements InternalListState<K, N, V> {

    HeapListState(StateTable<K, N, List<V>> table, N defaultNamespace) {
        super(table, defaultNamespace);
    }

    @Override
    public Iterable<V> get() {
        List<V> list = table.get(namespace, namespaceHash);
        return list == null ? Collections.emptyList() : list;
    }

    @Override
    public void add(V value) {
        checkElement(value, -1);
        StateMap.Entry<K, N, List<V>> entry = table.entry(namespace, namespaceHash);
        if (entry != null) {
            entry.state.add(value);
        } else {
            ArrayList<V> list = new ArrayList<>(4);
            list.add(value);
            table.insert(namespace, namespaceHash, list);
        }
    }

    @Override
    public void addAll(List<V> values) {
        checkList(values);
        if (values.isEmpty()) {
            return;
        }
        StateMap.Entry<K, N, List<V>> entry = table.entry(namespace, namespaceHash);
        if (entry != null) {
            entry.state.addAll(values);
        } else {
            table.insert(namespace, namespaceHash, new ArrayList<>(values));
        }
    }

    @Override
    public void update(List<V> values) {
        checkList(values);
        if (values.isEmpty()) {
            clear();
        } else {
            table.put(namespace, namespaceHash, new ArrayList<>(values));
        }
    }

    @Override
    public List<V> getInternal() {
        return table.get(namespace, namespaceHash);
    }

    /** Stores {@code valueToStore} itself if it is an {@link ArrayList}, else a copy; null or empty clears. */
    @Override
    public void updateInternal(List<V> valueToStore) {
        if (valueToStore == null || valueToStore.isEmpty()) {
            clear();
            return;
        }
        checkList(valueToStore);
        table.put(namespace, namespaceHash,
                valueToStore instanceof ArrayList<V> ? valueToStore : new ArrayList<>(valueToStore));
    }

    @Override
    List<V> mergeState(List<V> a, List<V> b) {
        a.addAll(b);
        return a;
    }

    private void checkList(List<V> values) {
        if (values == null) {
            throw new NullPointerException("list state '" + table.name + "': the list of values must not be null;"
                    + " use clear() or an empty list to remove all values");
        }
        for (int i = 0, n = values.size(); i < n; i++) {
            checkElement(values.get(i), i);
        }
    }

    private void checkElement(V value, int index) {
        if (value == null) {
            throw new NullPointerException("list state '" + table.name + "' cannot hold null"
                    + (index >= 0 ? " (element " + index + " of the list given)" : "")
                    + ": filter out null values before adding them");
        }
    }
}
