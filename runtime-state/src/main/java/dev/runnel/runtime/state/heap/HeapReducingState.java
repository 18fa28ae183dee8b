package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.runtime.state.internal.InternalReducingState;

/**
 * Heap {@link dev.runnel.api.common.state.ReducingState}: {@link #add} combines the value with the
 * stored one using the descriptor's reduce function. As in Flink's heap backend, adding null clears
 * the state, and a reduce result of null removes the entry.
 *
 * <p>Task thread only.
 */
final class HeapReducingState<K, N, V> extends AbstractHeapMergingState<K, N, V>
        implements InternalReducingState<K, N, V> {

    private final ReduceFunction<V> reduceFunction;

    HeapReducingState(StateTable<K, N, V> table, N defaultNamespace, ReduceFunction<V> reduceFunction) {
        super(table, defaultNamespace);
        this.reduceFunction = reduceFunction;
    }

    @Override
    public V get() {
        return table.get(namespace, namespaceHash);
    }

    @Override
    public void add(V value) throws Exception {
        if (value == null) {
            clear();
            return;
        }
        StateMap.Entry<K, N, V> entry = table.entry(namespace, namespaceHash);
        if (entry == null) {
            table.insert(namespace, namespaceHash, value);
            return;
        }
        V reduced = reduceFunction.reduce(entry.state, value);
        if (reduced == null) {
            clear();
        } else {
            entry.state = reduced;
        }
    }

    @Override
    V mergeState(V a, V b) throws Exception {
        return reduceFunction.reduce(a, b);
    }
}
