package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * All entries of one keyed state in a heap backend, in {@link StateMap}s (each created on first
 * write), addressed through the backend's current key:
 * <ul>
 *   <li>state of the key itself (the void namespace) has one map per key group of the backend's range; a
 *       value state of a boxed primitive type has {@link PrimitiveStateMap}s instead, which hold no entry
 *       objects (the methods that hand out entries are not for it) and each serve a contiguous range of key
 *       groups: one map for the whole range at first, split in halves as it grows large;
 *   <li>state per window (any other namespace) has {@value #NAMESPACE_SHARDS} maps chosen by the
 *       namespace's hash, so that the entries of one window share a map. A window's entries are
 *       written while the window is open and read once more when it fires; keeping them together
 *       keeps the map of the window being filled in the cache, and the one being fired small,
 *       instead of spreading each window over every key group's map. Snapshots, which go key group
 *       by key group, group these entries by the key group each remembers
 *       ({@link StateTableSnapshot}).
 * </ul>
 *
 * <p>Remembers the entry of the last lookup (in {@link PrimitiveStateMap}s its position), valid until the
 * current key is set again, the namespace object changes or an entry is removed, so that the
 * {@code update()} that usually follows a {@code value()} of the same key and namespace costs no second lookup.
 *
 * <p>Snapshots are copy-on-write: {@link #snapshot} shares the maps' entry arrays with the snapshot,
 * and from then on an entry the snapshot may read ({@link SnapshotVersions}) is replaced by a copy
 * before it changes; so is its value, before the value can change in place (handed out, or changed
 * by the state object), unless the value's type is immutable. A value that is replaced rather than
 * changed is not copied. What this costs: with no snapshot pending, one int compare per write and per
 * read of a mutable value; while one is pending, one entry (and mutable value) copy per entry touched.
 *
 * <p>Task thread only; a {@link StateTableSnapshot} may be written from any thread.
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

    /**
     * The number of maps of a per-window state (a power of two): more than the windows a watermark usually
     * leaves pending (a watermark every 200 ms over a stream of a million records a second with second-long
     * windows leaves some two hundred), so that a window mostly has a map of its own, sized for it alone and
     * starting over small when its last entry goes (see {@link StateMap}). With 64, each map held several
     * windows and each insert of the window being filled landed on a table position last touched a window
     * ago: a cache miss per record. Maps are created on first write; an empty one holds a few small arrays.
     */
    static final int NAMESPACE_SHARDS = 1024;

    private final HeapKeyContext<K> context;
    private final SnapshotVersions versions;
    /** Whether stored values can change in place, so that a snapshot needs a copy before they do. */
    private final boolean mutableValues;
    private final int numberOfKeyGroupsInRange;
    /** Per key group (key state), or per namespace shard (window state); null when {@link #flatMaps} is used. */
    private final StateMap<K, N, S>[] maps;
    /**
     * Per key group, for per-key value state of a boxed primitive type: the map without entry objects
     * ({@link PrimitiveStateMap}) that holds the key group, the same map at every offset of its range; all
     * null before the first write, none after it. Null for every other state, which lives in {@link #maps}.
     */
    private final PrimitiveStateMap[] flatMaps;

    private StateMap.Entry<K, N, S> cachedEntry;
    private Object cachedNamespace;
    private int cachedVersion;
    /** With {@link #flatMaps}: the current key's position in its key group's map, or -1; valid for {@link #cachedVersion}. */
    private int cachedPosition = -1;

    @SuppressWarnings("unchecked")
    StateTable(String name, StateMetaInfo metaInfo, HeapKeyContext<K> context, SnapshotVersions versions,
            int numberOfKeyGroupsInRange, TypeSerializer<K> keySerializer, TypeSerializer<N> namespaceSerializer,
            TypeSerializer<S> stateSerializer, TtlSnapshotFilter ttlFilter, boolean primitiveValues, boolean churn) {
        this.name = name;
        this.metaInfo = metaInfo;
        this.context = context;
        this.versions = versions;
        this.keySerializer = keySerializer;
        this.namespaceSerializer = namespaceSerializer;
        this.stateSerializer = stateSerializer;
        this.ttlFilter = ttlFilter;
        this.primitive = primitiveValues ? PrimitiveValue.Kind.of(stateSerializer) : null;
        this.mutableValues = primitive == null && !stateSerializer.isImmutableType();
        this.churn = churn;
        this.numberOfKeyGroupsInRange = numberOfKeyGroupsInRange;
        boolean flat = primitive != null && !churn;
        this.maps = flat ? null
                : (StateMap<K, N, S>[]) new StateMap<?, ?, ?>[churn ? NAMESPACE_SHARDS : numberOfKeyGroupsInRange];
        this.flatMaps = flat ? new PrimitiveStateMap[numberOfKeyGroupsInRange] : null;
    }

    /** The map that holds the current key's entry under a namespace with this hash. */
    private int mapIndex(int namespaceHash) {
        if (!churn) {
            return context.keyGroupOffset;
        }
        int h = namespaceHash * 0x9E3779B9;
        return (h ^ (h >>> 16)) & (NAMESPACE_SHARDS - 1);
    }

    private StateMap<K, N, S> mapForWriting(int namespaceHash, int keyGroupOffset) {
        int index = churn ? mapIndex(namespaceHash) : keyGroupOffset;
        StateMap<K, N, S> map = maps[index];
        if (map == null) {
            map = new StateMap<>(churn, primitive != null);
            maps[index] = map;
        }
        return map;
    }

    /**
     * The {@link PrimitiveStateMap} that takes a new key of the key group at {@code keyGroupOffset}: one map for
     * the whole range on the first write; a map that would grow too large is first split in halves.
     */
    private PrimitiveStateMap flatMapForInsert(int keyGroupOffset) {
        PrimitiveStateMap map = flatMaps[keyGroupOffset];
        if (map == null) {
            map = new PrimitiveStateMap(0, flatMaps.length - 1);
            Arrays.fill(flatMaps, map);
        }
        while (map.shouldSplitBeforeInsert()) {
            for (PrimitiveStateMap half : map.split()) {
                Arrays.fill(flatMaps, half.firstOffset, half.lastOffset + 1, half);
            }
            cachedPosition = -1; // the keys moved
            map = flatMaps[keyGroupOffset];
        }
        return map;
    }

    // ------------------------------------------------------------------ current key

    /**
     * The current key's entry under {@code namespace}, or null, for changing the entry or its value in
     * place, or for handing its value out: if a snapshot may read the entry, it is first replaced by a
     * copy with a copy of a mutable value.
     */
    StateMap.Entry<K, N, S> entry(N namespace, int namespaceHash) {
        if (flatMaps != null) {
            throw new IllegalStateException("state '" + name + "' keeps primitive values without entries");
        }
        StateMap.Entry<K, N, S> e = lookup(namespace, namespaceHash);
        if (e != null && e.version < versions.highestPinned) {
            e = copyOnWrite(e, namespace, namespaceHash, true);
        }
        return e;
    }

    /** The current key's entry under {@code namespace}, or null, for reading only. */
    private StateMap.Entry<K, N, S> lookup(N namespace, int namespaceHash) {
        HeapKeyContext<K> c = context;
        StateMap.Entry<K, N, S> e = cachedEntry;
        if (e != null && cachedVersion == c.version && cachedNamespace == namespace) {
            return e;
        }
        StateMap<K, N, S> map = maps[mapIndex(namespaceHash)];
        if (map == null) {
            return null;
        }
        e = map.get(c.key, namespace, StateMap.hash(c.keyHash, namespaceHash));
        if (e != null) {
            remember(e, namespace, c.version);
        }
        return e;
    }

    /** Whether {@link #prefetch} applies: state of the key itself (the void namespace), not per window. */
    boolean prefetches() {
        return !churn;
    }

    /**
     * Reads ahead what the lookups of the given keys (void namespace) will read: first the table
     * positions of all of them, then the entries found there, so that the cache misses of the keys
     * overlap. Changes nothing; returns a value derived from the reads.
     *
     * @param keyHashes the keys' hash codes
     * @param keyGroupOffsets the keys' key groups as offsets in the backend's range (others are skipped)
     * @param slots scratch space of at least {@code count}
     */
    int prefetch(int[] keyHashes, int[] keyGroupOffsets, int[] slots, int count, int namespaceHash) {
        if (flatMaps != null) {
            return prefetchFlat(keyHashes, keyGroupOffsets, slots, count, namespaceHash);
        }
        StateMap<K, N, S>[] m = maps;
        for (int k = 0; k < count; k++) {
            int offset = keyGroupOffsets[k];
            StateMap<K, N, S> map = offset >= 0 && offset < m.length ? m[offset] : null;
            slots[k] = map == null ? 0 : map.touchPosition(StateMap.hash(keyHashes[k], namespaceHash));
        }
        int acc = 0;
        for (int k = 0; k < count; k++) {
            if (slots[k] != 0) {
                acc += m[keyGroupOffsets[k]].touchEntry(StateMap.hash(keyHashes[k], namespaceHash), slots[k]);
            }
        }
        return acc;
    }

    /** {@link #prefetch} in {@link #flatMaps}: the home positions first, then the keys found there. */
    private int prefetchFlat(int[] keyHashes, int[] keyGroupOffsets, int[] slots, int count, int namespaceHash) {
        PrimitiveStateMap[] m = flatMaps;
        for (int k = 0; k < count; k++) {
            int offset = keyGroupOffsets[k];
            PrimitiveStateMap map = offset >= 0 && offset < m.length ? m[offset] : null;
            slots[k] = map == null ? 0 : map.touchPosition(StateMap.hash(keyHashes[k], namespaceHash));
        }
        int acc = 0;
        for (int k = 0; k < count; k++) {
            if (slots[k] != 0) {
                acc += m[keyGroupOffsets[k]].touchKey(StateMap.hash(keyHashes[k], namespaceHash), slots[k]);
            }
        }
        return acc;
    }

    /** The current key's value under {@code namespace}, or null. */
    S get(N namespace, int namespaceHash) {
        if (flatMaps != null) {
            return getValue(namespace, namespaceHash);
        }
        StateMap.Entry<K, N, S> e = entry(namespace, namespaceHash);
        return e == null ? null : e.state;
    }

    /** The value {@code e} holds (null for no entry). */
    @SuppressWarnings("unchecked")
    S valueOf(StateMap.Entry<K, N, S> e) {
        if (e == null) {
            return null;
        }
        return primitive == null ? e.state : (S) primitive.fromBits(((StateMap.BitsEntry<K, N, S>) e).bits);
    }

    /** The current key's value under {@code namespace}, or null; primitive values come boxed. */
    @SuppressWarnings("unchecked")
    S getValue(N namespace, int namespaceHash) {
        if (flatMaps != null) {
            int position = flatPosition(namespaceHash);
            return position < 0 ? null : (S) primitive.fromBits(flatMaps[context.keyGroupOffset].bitsAt(position));
        }
        // a boxed primitive cannot change in place: no copy needed for a snapshot
        return primitive != null ? valueOf(lookup(namespace, namespaceHash)) : get(namespace, namespaceHash);
    }

    /**
     * With {@link #flatMaps}: the current key's position in its key group's map, or -1; remembered for the
     * write that usually follows the read of the same key.
     */
    private int flatPosition(int namespaceHash) {
        HeapKeyContext<K> c = context;
        if (cachedPosition >= 0 && cachedVersion == c.version) {
            return cachedPosition;
        }
        PrimitiveStateMap map = flatMaps[c.keyGroupOffset];
        if (map == null) {
            return -1;
        }
        int position = map.find(c.key, StateMap.hash(c.keyHash, namespaceHash), c.inlineKey(), c.keyGroupOffset);
        if (position >= 0) {
            cachedPosition = position;
            cachedVersion = c.version;
        }
        return position;
    }

    /** With {@link #flatMaps}: sets the current key's value bits, adding the key if absent. */
    private void setFlat(int namespaceHash, long bits) {
        int position = flatPosition(namespaceHash);
        HeapKeyContext<K> c = context;
        if (position >= 0) {
            flatMaps[c.keyGroupOffset].setBits(position, bits);
            return;
        }
        if (c.key == null) {
            throw noCurrentKey();
        }
        cachedPosition = flatMapForInsert(c.keyGroupOffset).insert(c.key, StateMap.hash(c.keyHash, namespaceHash),
                c.inlineKey(), bits, c.keyGroupOffset);
        cachedVersion = c.version;
    }

    private IllegalStateException noCurrentKey() {
        return new IllegalStateException("state '" + name + "' cannot be written: no current key is set (keyed state"
                + " is only available while processing a keyed record or timer)");
    }

    /** Sets the current key's value under {@code namespace} (not null); primitives are written in place. */
    @SuppressWarnings("unchecked")
    void setValue(N namespace, int namespaceHash, S value) {
        if (primitive == null) {
            put(namespace, namespaceHash, value);
            return;
        }
        if (flatMaps != null) {
            setFlat(namespaceHash, primitive.toBits(value));
            return;
        }
        StateMap.Entry<K, N, S> e = lookup(namespace, namespaceHash);
        if (e == null) {
            e = insert(namespace, namespaceHash, (S) PrimitiveValue.PRESENT);
        } else if (e.version < versions.highestPinned) {
            e = copyOnWrite(e, namespace, namespaceHash, false);
        }
        ((StateMap.BitsEntry<K, N, S>) e).bits = primitive.toBits(value);
    }

    /** Puts a restored value of a key in the key group at {@code keyGroupOffset}, in the form this table keeps values. */
    @SuppressWarnings("unchecked")
    void putRestored(int keyGroupOffset, K key, N namespace, S value) {
        int namespaceHash = namespace.hashCode();
        if (flatMaps != null) {
            flatMapForInsert(keyGroupOffset).put(key, StateMap.hash(key.hashCode(), namespaceHash),
                    primitive.toBits(value), keyGroupOffset);
            cachedPosition = -1;
            return;
        }
        StateMap<K, N, S> map = mapForWriting(namespaceHash, keyGroupOffset);
        int hash = StateMap.hash(key.hashCode(), namespaceHash);
        StateMap.Entry<K, N, S> e = map.put(key, namespace, hash, primitive == null ? value : (S) PrimitiveValue.PRESENT);
        if (primitive != null) {
            ((StateMap.BitsEntry<K, N, S>) e).bits = primitive.toBits(value);
        }
        e.keyGroupOffset = keyGroupOffset;
        e.version = versions.current();
        cachedEntry = null;
    }

    /** Sets the current key's value under {@code namespace} (not null). */
    void put(N namespace, int namespaceHash, S value) {
        if (flatMaps != null) {
            setValue(namespace, namespaceHash, value);
            return;
        }
        StateMap.Entry<K, N, S> e = lookup(namespace, namespaceHash);
        if (e == null) {
            insert(namespace, namespaceHash, value);
            return;
        }
        if (e.version < versions.highestPinned) {
            e = copyOnWrite(e, namespace, namespaceHash, false); // the old value stays the snapshot's
        }
        e.state = value;
    }

    /** Adds the current key's value under {@code namespace}, which the caller knows is absent; returns its entry. */
    StateMap.Entry<K, N, S> insert(N namespace, int namespaceHash, S value) {
        if (flatMaps != null) {
            throw new IllegalStateException("state '" + name + "' keeps primitive values without entries");
        }
        HeapKeyContext<K> c = context;
        if (c.key == null) {
            throw noCurrentKey();
        }
        if (namespace == null) {
            throw new IllegalStateException("state '" + name + "' cannot be written: no namespace is set (call"
                    + " setCurrentNamespace first)");
        }
        StateMap<K, N, S> map = mapForWriting(namespaceHash, c.keyGroupOffset);
        // an entry per window outlives the record that opened it: it keeps the interned key, not the record's
        K key = churn ? c.retainedKey() : c.key;
        StateMap.Entry<K, N, S> e = map.insert(key, namespace, StateMap.hash(c.keyHash, namespaceHash), value);
        e.keyGroupOffset = c.keyGroupOffset;
        e.version = versions.current();
        remember(e, namespace, c.version);
        return e;
    }

    /** Removes the current key's value under {@code namespace} and returns it, or null. */
    @SuppressWarnings("unchecked")
    S remove(N namespace, int namespaceHash) {
        HeapKeyContext<K> c = context;
        if (flatMaps != null) {
            int position = flatPosition(namespaceHash);
            if (position < 0) {
                return null;
            }
            cachedPosition = -1; // later positions of the run may move back
            PrimitiveStateMap flat = flatMaps[c.keyGroupOffset];
            S old = (S) primitive.fromBits(flat.bitsAt(position));
            flat.removeAt(position);
            return old;
        }
        StateMap<K, N, S> map = maps[mapIndex(namespaceHash)];
        if (map == null) {
            return null;
        }
        cachedEntry = null;
        StateMap.Entry<K, N, S> e = map.remove(c.key, namespace, StateMap.hash(c.keyHash, namespaceHash));
        if (e == null) {
            return null;
        }
        // the caller may change the value it gets (merging does), while a snapshot may still read it
        if (mutableValues && e.version < versions.highestPinned && versions.mustCopy(e.version)) {
            return stateSerializer.copy(e.state);
        }
        return e.state;
    }

    /**
     * Replaces {@code e}, the current key's entry under {@code namespace}, by a copy that this table
     * may change (with a copy of its value if {@code copyValue} and values are mutable), unless no
     * pinned snapshot may read it any more; returns the entry to change.
     */
    private StateMap.Entry<K, N, S> copyOnWrite(StateMap.Entry<K, N, S> e, N namespace, int namespaceHash,
            boolean copyValue) {
        if (!versions.mustCopy(e.version)) {
            return e;
        }
        S state = copyValue && mutableValues ? stateSerializer.copy(e.state) : e.state;
        StateMap.Entry<K, N, S> copy = e.copyWith(state);
        copy.keyGroupOffset = e.keyGroupOffset;
        copy.version = versions.current();
        HeapKeyContext<K> c = context;
        maps[mapIndex(namespaceHash)].replace(e, copy, StateMap.hash(c.keyHash, namespaceHash));
        remember(copy, namespace, c.version);
        return copy;
    }

    private void remember(StateMap.Entry<K, N, S> e, Object namespace, int version) {
        cachedEntry = e;
        cachedNamespace = namespace;
        cachedVersion = version;
    }

    // ------------------------------------------------------------------ whole table

    /**
     * Shares the entries of the key groups at offsets {@code [fromOffset, toOffset]} of the backend's
     * range with a snapshot, as they are now; O(number of maps). The caller must have pinned a
     * snapshot version first, so that the entries stay unchanged while the snapshot may read them.
     */
    StateTableSnapshot<K, N, S> snapshot(int fromOffset, int toOffset) {
        if (flatMaps != null) {
            PrimitiveStateMap.Shared[] byKeyGroup = new PrimitiveStateMap.Shared[Math.max(0, toOffset - fromOffset + 1)];
            for (int i = 0; i < byKeyGroup.length; i++) {
                PrimitiveStateMap map = flatMaps[fromOffset + i];
                boolean sameAsBefore = i > 0 && map == flatMaps[fromOffset + i - 1];
                if (sameAsBefore) {
                    byKeyGroup[i] = byKeyGroup[i - 1]; // a map of several key groups is shared once
                } else if (map != null) {
                    byKeyGroup[i] = map.share();
                }
            }
            return StateTableSnapshot.perKeyGroupFlat(this, fromOffset, byKeyGroup);
        }
        if (!churn || toOffset < fromOffset) {
            StateMap.Entry<K, N, S>[][] byKeyGroup = newEntryArrays(Math.max(0, toOffset - fromOffset + 1));
            for (int i = 0; i < byKeyGroup.length; i++) {
                StateMap<K, N, S> map = maps[fromOffset + i];
                byKeyGroup[i] = map == null ? null : map.share();
            }
            return StateTableSnapshot.perKeyGroup(this, fromOffset, byKeyGroup);
        }
        StateMap.Entry<K, N, S>[][] shards = newEntryArrays(maps.length);
        for (int i = 0; i < shards.length; i++) {
            shards[i] = maps[i] == null ? null : maps[i].share();
        }
        return StateTableSnapshot.byNamespaceShard(this, fromOffset, toOffset, shards);
    }

    @SuppressWarnings("unchecked")
    private static <K, N, S> StateMap.Entry<K, N, S>[][] newEntryArrays(int n) {
        return (StateMap.Entry<K, N, S>[][]) new StateMap.Entry<?, ?, ?>[n][];
    }

    /** The keys with an entry under {@code namespace}, in a list the caller owns. */
    @SuppressWarnings("unchecked")
    List<K> keys(Object namespace) {
        List<K> keys = new ArrayList<>();
        if (flatMaps != null) {
            if (namespace.equals(VoidNamespace.INSTANCE)) {
                for (PrimitiveStateMap map : distinctFlatMaps()) {
                    for (int i = 0; i < map.capacity(); i++) {
                        Object key = map.keyAt(i);
                        if (key != null) {
                            keys.add((K) key);
                        }
                    }
                }
            }
            return keys;
        }
        StateMap<K, N, S>[] candidates = churn ? singleMap(maps[mapIndex(namespace.hashCode())]) : maps;
        for (StateMap<K, N, S> map : candidates) {
            if (map == null || map.size() == 0) {
                continue;
            }
            for (StateMap.Entry<K, N, S> e : map.slots()) {
                if (e != null && e.namespace.equals(namespace)) {
                    keys.add(e.key);
                }
            }
        }
        return keys;
    }

    /** The number of entries over all key groups. */
    int size() {
        int size = 0;
        if (flatMaps != null) {
            for (PrimitiveStateMap map : distinctFlatMaps()) {
                size += map.size();
            }
            return size;
        }
        for (StateMap<K, N, S> map : maps) {
            size += map == null ? 0 : map.size();
        }
        return size;
    }

    /** The number of maps that exist (for tests of the layout). */
    int mapCount() {
        if (flatMaps != null) {
            return distinctFlatMaps().size();
        }
        int count = 0;
        for (StateMap<K, N, S> map : maps) {
            count += map == null ? 0 : 1;
        }
        return count;
    }

    /** Each map of {@link #flatMaps} once (a map stands at every offset of its range, and ranges are contiguous). */
    private List<PrimitiveStateMap> distinctFlatMaps() {
        List<PrimitiveStateMap> distinct = new ArrayList<>();
        for (int i = 0; i < flatMaps.length; i++) {
            PrimitiveStateMap map = flatMaps[i];
            if (map != null && (i == 0 || map != flatMaps[i - 1])) {
                distinct.add(map);
            }
        }
        return distinct;
    }

    @SuppressWarnings("unchecked")
    private static <K, N, S> StateMap<K, N, S>[] singleMap(StateMap<K, N, S> map) {
        return (StateMap<K, N, S>[]) new StateMap<?, ?, ?>[] {map};
    }

    /** Drops every entry; the table stays usable. */
    void clear() {
        cachedEntry = null;
        cachedNamespace = null;
        cachedPosition = -1;
        if (flatMaps != null) {
            Arrays.fill(flatMaps, null);
            return;
        }
        for (int i = 0; i < maps.length; i++) {
            maps[i] = null;
        }
    }
}
