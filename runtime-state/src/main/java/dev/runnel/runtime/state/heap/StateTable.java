package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.snapshot.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import java.util.ArrayList;
import java.util.List;

/**
 * All entries of one keyed state in a heap backend: one {@link StateMap} per key group of the
 * backend's range (created on first write), addressed through the backend's current key.
 *
 * <p>Remembers the entry of the last lookup, valid until the current key is set again, the namespace
 * object changes or an entry is removed, so that the {@code update()} that usually follows a
 * {@code value()} of the same key and namespace costs no second lookup.
 *
 * <p>Task thread only.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <S> the stored value type (for list state the list, for map state the map)
 */
final class StateTable<K, N, S> {

    final String name;
    final StateMetaInfo metaInfo;
    final TypeSerializer<K> keySerializer;
    final TypeSerializer<N> namespaceSerializer;
    /** The serializer of the stored value (list and map serializers for those kinds). */
    final TypeSerializer<S> stateSerializer;
    /** Non-null when the stored values are TTL-wrapped: decides which entries a snapshot skips. */
    final TtlSnapshotFilter ttlFilter;
    /**
     * Non-null when entries keep the values' primitive bits instead of references to them (value
     * state of a boxed primitive type, see {@link PrimitiveValue}); then read values through
     * {@link #valueOf} and write them through {@link #setValue} or {@link #putRestored}.
     */
    final PrimitiveValue.Kind primitive;
    /** Whether entries are short-lived (state per window): selects the maps' churn layout. */
    private final boolean churn;

    private final HeapKeyContext<K> context;
    private final StateMap<K, N, S>[] maps;

    private StateMap.Entry<K, N, S> cachedEntry;
    private Object cachedNamespace;
    private int cachedVersion;

    @SuppressWarnings("unchecked")
    StateTable(String name, StateMetaInfo metaInfo, HeapKeyContext<K> context, int numberOfKeyGroupsInRange,
            TypeSerializer<K> keySerializer, TypeSerializer<N> namespaceSerializer, TypeSerializer<S> stateSerializer,
            TtlSnapshotFilter ttlFilter, boolean primitiveValues, boolean churn) {
        this.name = name;
        this.metaInfo = metaInfo;
        this.context = context;
        this.keySerializer = keySerializer;
        this.namespaceSerializer = namespaceSerializer;
        this.stateSerializer = stateSerializer;
        this.ttlFilter = ttlFilter;
        this.primitive = primitiveValues ? PrimitiveValue.Kind.of(stateSerializer) : null;
        this.churn = churn;
        this.maps = (StateMap<K, N, S>[]) new StateMap<?, ?, ?>[numberOfKeyGroupsInRange];
    }

    // ------------------------------------------------------------------ current key

    /** The current key's entry under {@code namespace}, or null. */
    StateMap.Entry<K, N, S> entry(N namespace, int namespaceHash) {
        HeapKeyContext<K> c = context;
        StateMap.Entry<K, N, S> e = cachedEntry;
        if (e != null && cachedVersion == c.version && cachedNamespace == namespace) {
            return e;
        }
        StateMap<K, N, S> map = maps[c.keyGroupOffset];
        if (map == null) {
            return null;
        }
        e = map.get(c.key, namespace, StateMap.hash(c.keyHash, namespaceHash));
        if (e != null) {
            remember(e, namespace, c.version);
        }
        return e;
    }

    /** The current key's value under {@code namespace}, or null. */
    S get(N namespace, int namespaceHash) {
        StateMap.Entry<K, N, S> e = entry(namespace, namespaceHash);
        return e == null ? null : e.state;
    }

    /** The value {@code e} holds (null for no entry). */
    @SuppressWarnings("unchecked")
    S valueOf(StateMap.Entry<K, N, S> e) {
        if (e == null) {
            return null;
        }
        return primitive == null ? e.state : (S) primitive.fromBits(e.bits);
    }

    /** The current key's value under {@code namespace}, or null; primitive values come boxed. */
    S getValue(N namespace, int namespaceHash) {
        return valueOf(entry(namespace, namespaceHash));
    }

    /** Sets the current key's value under {@code namespace} (not null); primitives are written in place. */
    @SuppressWarnings("unchecked")
    void setValue(N namespace, int namespaceHash, S value) {
        if (primitive == null) {
            put(namespace, namespaceHash, value);
            return;
        }
        StateMap.Entry<K, N, S> e = entry(namespace, namespaceHash);
        if (e == null) {
            e = insert(namespace, namespaceHash, (S) PrimitiveValue.PRESENT);
        }
        e.bits = primitive.toBits(value);
    }

    /** Puts a restored value into {@code map}, in the form this table keeps values. */
    @SuppressWarnings("unchecked")
    void putRestored(StateMap<K, N, S> map, K key, N namespace, int hash, S value) {
        if (primitive == null) {
            map.put(key, namespace, hash, value);
        } else {
            map.put(key, namespace, hash, (S) PrimitiveValue.PRESENT).bits = primitive.toBits(value);
        }
    }

    /** Sets the current key's value under {@code namespace} (not null). */
    void put(N namespace, int namespaceHash, S value) {
        StateMap.Entry<K, N, S> e = entry(namespace, namespaceHash);
        if (e != null) {
            e.state = value;
        } else {
            insert(namespace, namespaceHash, value);
        }
    }

    /** Adds the current key's value under {@code namespace}, which the caller knows is absent; returns its entry. */
    StateMap.Entry<K, N, S> insert(N namespace, int namespaceHash, S value) {
        HeapKeyContext<K> c = context;
        if (c.key == null || namespace == null) {
            throw new IllegalStateException("state '" + name + "' cannot be written: " + (c.key == null
                    ? "no current key is set (keyed state is only available while processing a keyed record or timer)"
                    : "no namespace is set (call setCurrentNamespace first)"));
        }
        StateMap<K, N, S> map = maps[c.keyGroupOffset];
        if (map == null) {
            map = new StateMap<>(churn);
            maps[c.keyGroupOffset] = map;
        }
        StateMap.Entry<K, N, S> e = map.insert(c.key, namespace, StateMap.hash(c.keyHash, namespaceHash), value);
        remember(e, namespace, c.version);
        return e;
    }

    /** Removes the current key's value under {@code namespace} and returns it, or null. */
    S remove(N namespace, int namespaceHash) {
        HeapKeyContext<K> c = context;
        StateMap<K, N, S> map = maps[c.keyGroupOffset];
        if (map == null) {
            return null;
        }
        cachedEntry = null;
        StateMap.Entry<K, N, S> e = map.remove(c.key, namespace, StateMap.hash(c.keyHash, namespaceHash));
        return e == null ? null : e.state;
    }

    private void remember(StateMap.Entry<K, N, S> e, Object namespace, int version) {
        cachedEntry = e;
        cachedNamespace = namespace;
        cachedVersion = version;
    }

    // ------------------------------------------------------------------ whole table

    /** The map of the key group at {@code keyGroupOffset} in the range, or null if it never had entries. */
    StateMap<K, N, S> mapAt(int keyGroupOffset) {
        return maps[keyGroupOffset];
    }

    /** The map of the key group at {@code keyGroupOffset}, created if needed (for restores). */
    StateMap<K, N, S> mapForWriting(int keyGroupOffset) {
        StateMap<K, N, S> map = maps[keyGroupOffset];
        if (map == null) {
            map = new StateMap<>(churn);
            maps[keyGroupOffset] = map;
        }
        return map;
    }

    /** The keys with an entry under {@code namespace}, in a list the caller owns. */
    List<K> keys(Object namespace) {
        List<K> keys = new ArrayList<>();
        for (StateMap<K, N, S> map : maps) {
            if (map == null || map.size() == 0) {
                continue;
            }
            for (StateMap.Entry<K, N, S> e : map.slots()) {
                if (e != null) {
                    if (e.namespace.equals(namespace)) {
                        keys.add(e.key);
                    }
                }
            }
        }
        return keys;
    }

    /** The number of entries over all key groups. */
    int size() {
        int size = 0;
        for (StateMap<K, N, S> map : maps) {
            size += map == null ? 0 : map.size();
        }
        return size;
    }

    /** Drops every entry; the table stays usable. */
    void clear() {
        cachedEntry = null;
        cachedNamespace = null;
        for (int i = 0; i < maps.length; i++) {
            maps[i] = null;
        }
    }
}
