package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.internal.InternalKvState;

/**
 * Base of the heap store's state objects: one per registered state, acting on the backend's current
 * key and on the namespace set last.
 *
 * <p>Task thread only. The namespace must be set before use; {@link dev.runnel.runtime.state.VoidNamespace}
 * for state that belongs to a key only.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <SV> the stored value type
 */
abstract class AbstractHeapState<K, N, SV> implements InternalKvState<K, N, SV> {

    final StateTable<K, N, SV> table;
    N namespace;
    int namespaceHash;

    /** @param defaultNamespace the namespace until one is set; may be null (then writes fail until set) */
    AbstractHeapState(StateTable<K, N, SV> table, N defaultNamespace) {
        this.table = table;
        this.namespace = defaultNamespace;
        this.namespaceHash = defaultNamespace == null ? 0 : defaultNamespace.hashCode();
    }

    @Override
    public final void setCurrentNamespace(N namespace) {
        if (namespace == null) {
            throw new NullPointerException("state '" + table.name + "': the namespace must not be null; use "
                    + "VoidNamespace.INSTANCE for state that belongs to a key only");
        }
        this.namespace = namespace;
        this.namespaceHash = namespace.hashCode();
    }

    @Override
    public final void clear() {
        table.remove(namespace, namespaceHash);
    }

    @Override
    public final TypeSerializer<K> getKeySerializer() {
        return table.keySerializer;
    }

    @Override
    public final TypeSerializer<N> getNamespaceSerializer() {
        return table.namespaceSerializer;
    }

    @Override
    public final TypeSerializer<SV> getValueSerializer() {
        return table.stateSerializer;
    }

    /** The current key's stored value, or null. */
    public SV getInternal() {
        return table.get(namespace, namespaceHash);
    }

    /** Replaces the current key's stored value; null removes it. */
    public void updateInternal(SV valueToStore) {
        if (valueToStore == null) {
            table.remove(namespace, namespaceHash);
        } else {
            table.put(namespace, namespaceHash, valueToStore);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + table.name + '}';
    }
}
