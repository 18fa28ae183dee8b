package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.internal.InternalValueState;

/**
 * Heap {@link dev.runnel.api.common.state.ValueState}: the value is stored by reference, so
 * {@link #value()} returns the stored object itself (as Flink's heap backend does) — except boxed
 * primitives, which the entry keeps as bits that updates write in place (see {@link PrimitiveValue}).
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
        return table.getValue(namespace, namespaceHash);
    }

    @Override
    public void update(V value) {
        if (value == null) {
            table.remove(namespace, namespaceHash);
        } else {
            table.setValue(namespace, namespaceHash, value);
        }
    }

    @Override
    public V getInternal() {
        return value();
    }

    @Override
    public void updateInternal(V valueToStore) {
        update(valueToStore);
    }
}
