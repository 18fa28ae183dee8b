package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.internal.InternalValueState;

/**
 * Heap {@link dev.runnel.api.common.state.ValueState}: the value is stored by reference, so
 * {@link #value()} returns the stored object itself (as Flink's heap backend does).
 *
 * <p>Task thread only. {@link #value()} followed by {@link #update} of the same key and namespace
 * costs one hash lookup.
 */
final class HeapValueState<K, N, V> extends AbstractHeapState<K, N, V> implements InternalValueState<K, N, V> {

    HeapValueState(StateTable<K, N, V> table, N defaultNamespace) {
        super(table, defaultNamespace);
    }

    @Override
    public V value() {
        return table.get(namespace, namespaceHash);
    }

    @Override
    public void update(V value) {
        updateInternal(value);
    }
}
