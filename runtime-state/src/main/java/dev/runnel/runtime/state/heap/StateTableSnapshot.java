package dev.runnel.runtime.state.heap;

import dev.runnel.runtime.state.VoidNamespace;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/**
 * The entries of one {@link StateTable} in some key groups at the moment of a snapshot: the arrays
 * of entries its maps shared ({@link StateMap#share()}), which neither the maps nor the table change
 * afterwards (the table copies an entry before changing it while the snapshot's version is pinned).
 * For state per key group the arrays are the key groups' maps; for window state they are the
 * namespace shards, and the entries are grouped by key group on first use, on the writing thread.
 *
 * <p>Built on the task thread; then read by one writing thread. Reads only final fields of the
 * table (name, serializers, TTL filter, value layout).
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <S> the stored value type
 */
final class StateTableSnapshot<K, N, S> {

    final StateTable<K, N, S> table;
    /** The offset in the backend's range of the first key group of the snapshot. */
    private final int fromOffset;
    private final int toOffset;
    /** Per key group from {@link #fromOffset}, or (window state) per namespace shard; null slots skipped. */
    private final StateMap.Entry<K, N, S>[][] arrays;
    private final boolean byShard;
    /** Window state's entries by key group (offset from {@link #fromOffset}), grouped on first use. */
    private List<StateMap.Entry<K, N, S>>[] grouped;
    /**
     * Per key group from {@link #fromOffset} for a table of {@link PrimitiveStateMap}s, else null: the shared
     * arrays of the map holding the key group, the same at every key group of a map of several.
     */
    private final PrimitiveStateMap.Shared[] flat;
    /**
     * The positions of each key group's keys in {@link #flat}'s arrays (offset from {@link #fromOffset}), found on
     * first use.
     */
    private int[][] flatPositions;

    private StateTableSnapshot(StateTable<K, N, S> table, int fromOffset, int toOffset,
            StateMap.Entry<K, N, S>[][] arrays, boolean byShard, PrimitiveStateMap.Shared[] flat) {
        this.table = table;
        this.fromOffset = fromOffset;
        this.toOffset = toOffset;
        this.arrays = arrays;
        this.byShard = byShard;
        this.flat = flat;
    }

    /** A snapshot whose {@code arrays[i]} holds the entries of key group offset {@code fromOffset + i}. */
    static <K, N, S> StateTableSnapshot<K, N, S> perKeyGroup(StateTable<K, N, S> table, int fromOffset,
            StateMap.Entry<K, N, S>[][] arrays) {
        return new StateTableSnapshot<>(table, fromOffset, fromOffset + arrays.length - 1, arrays, false, null);
    }

    /**
     * A snapshot whose {@code shared[i]} holds (among others, when a map holds several key groups) the keys and
     * values of key group offset {@code fromOffset + i}.
     */
    static <K, N, S> StateTableSnapshot<K, N, S> perKeyGroupFlat(StateTable<K, N, S> table, int fromOffset,
            PrimitiveStateMap.Shared[] shared) {
        return new StateTableSnapshot<>(table, fromOffset, fromOffset + shared.length - 1, null, false, shared);
    }

    /** A snapshot of the key group offsets {@code [fromOffset, toOffset]} of window state's shards. */
    static <K, N, S> StateTableSnapshot<K, N, S> byNamespaceShard(StateTable<K, N, S> table, int fromOffset,
            int toOffset, StateMap.Entry<K, N, S>[][] shards) {
        return new StateTableSnapshot<>(table, fromOffset, toOffset, shards, true, null);
    }

    /**
     * The entries of the key group at {@code keyGroupOffset} (in the backend's range, within this
     * snapshot's); skip nulls, do not modify.
     */
    Iterable<StateMap.Entry<K, N, S>> entriesInKeyGroup(int keyGroupOffset) {
        if (flat != null) {
            if (flatPositions == null) {
                flatPositions = positionsByKeyGroup();
            }
            int group = keyGroupOffset - fromOffset;
            return asEntries(flat[group], flatPositions[group], keyGroupOffset);
        }
        if (!byShard) {
            StateMap.Entry<K, N, S>[] entries = arrays[keyGroupOffset - fromOffset];
            return entries == null ? List.of() : Arrays.asList(entries);
        }
        if (grouped == null) {
            grouped = groupByKeyGroup();
        }
        List<StateMap.Entry<K, N, S>> entries = grouped[keyGroupOffset - fromOffset];
        return entries == null ? List.of() : entries;
    }

    /**
     * The mappings of a {@link PrimitiveStateMap} as entries of the void namespace holding the value bits, made
     * here on the writing thread so that the codec reads every table alike.
     */
    @SuppressWarnings("unchecked")
    private List<StateMap.Entry<K, N, S>> asEntries(PrimitiveStateMap.Shared shared, int[] positions,
            int keyGroupOffset) {
        if (shared == null) {
            return List.of();
        }
        List<StateMap.Entry<K, N, S>> entries = new ArrayList<>(positions.length);
        for (int position : positions) {
            StateMap.BitsEntry<K, N, S> e = new StateMap.BitsEntry<>((K) shared.key(position),
                    (N) VoidNamespace.INSTANCE, (S) PrimitiveValue.PRESENT);
            e.bits = shared.bits(position);
            e.keyGroupOffset = keyGroupOffset;
            entries.add(e);
        }
        return entries;
    }

    /**
     * For each key group of the snapshot, the positions of its keys in its map's shared arrays: one pass over
     * each map (a counting sort by key group), not one per key group it holds.
     */
    private int[][] positionsByKeyGroup() {
        int groups = toOffset - fromOffset + 1;
        int[][] positions = new int[Math.max(0, groups)][];
        int[] counts = new int[Math.max(0, groups)];
        for (int g = 0; g < groups; ) {
            PrimitiveStateMap.Shared shared = flat[g];
            int end = g + 1;
            while (end < groups && flat[end] == shared) {
                end++;
            }
            if (shared != null) {
                for (int i = 0; i < shared.capacity(); i++) {
                    int group = groupOf(shared, i, g, end);
                    if (group >= 0) {
                        counts[group]++;
                    }
                }
                for (int k = g; k < end; k++) {
                    positions[k] = new int[counts[k]];
                    counts[k] = 0;
                }
                for (int i = 0; i < shared.capacity(); i++) {
                    int group = groupOf(shared, i, g, end);
                    if (group >= 0) {
                        positions[group][counts[group]++] = i;
                    }
                }
            }
            g = end;
        }
        return positions;
    }

    /** The snapshot's index ({@code [from, end)}) of the key group of {@code shared}'s position {@code i}, or -1. */
    private int groupOf(PrimitiveStateMap.Shared shared, int i, int from, int end) {
        if (shared.isEmpty(i)) {
            return -1;
        }
        int group = shared.keyGroupOffset(i) - fromOffset;
        return group >= from && group < end ? group : -1;
    }

    @SuppressWarnings("unchecked")
    private List<StateMap.Entry<K, N, S>>[] groupByKeyGroup() {
        List<StateMap.Entry<K, N, S>>[] groups = (List<StateMap.Entry<K, N, S>>[]) new List<?>[toOffset - fromOffset + 1];
        for (StateMap.Entry<K, N, S>[] shard : arrays) {
            if (shard == null) {
                continue;
            }
            for (StateMap.Entry<K, N, S> e : shard) {
                if (e != null && e.keyGroupOffset >= fromOffset && e.keyGroupOffset <= toOffset) {
                    List<StateMap.Entry<K, N, S>> group = groups[e.keyGroupOffset - fromOffset];
                    if (group == null) {
                        group = new ArrayList<>();
                        groups[e.keyGroupOffset - fromOffset] = group;
                    }
                    group.add(e);
                }
            }
        }
        return groups;
    }
}
