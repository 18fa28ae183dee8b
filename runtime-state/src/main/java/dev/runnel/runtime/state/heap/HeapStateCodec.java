package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.MapSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.SnapshotEntryCursor;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateKind;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import dev.runnel.runtime.state.ttl.TtlValue;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * Turns a heap state table's entries of one key group into a snapshot section, and a restored
 * section back into entries, in the layout of the shared snapshot format. Reuses its buffers, so
 * writing a snapshot allocates only what the serializers do.
 *
 * <p>One thread at a time: the task thread restores with the backend's instance; a snapshot writes
 * with its own instance, on its writing thread.
 */
final class HeapStateCodec {

    private final DataOutputSerializer keyScratch = new DataOutputSerializer(64);
    private final DataOutputSerializer valueScratch = new DataOutputSerializer(256);
    private final DataInputDeserializer in = new DataInputDeserializer();
    private final int numberOfKeyGroups;

    HeapStateCodec(int numberOfKeyGroups) {
        this.numberOfKeyGroups = numberOfKeyGroups;
    }

    // ------------------------------------------------------------------ writing

    /**
     * Writes the snapshot's entries of the key group at {@code keyGroupOffset} into {@code out},
     * skipping expired ones of TTL state, and returns how many it wrote.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <K, N, S> int writeKeyGroup(StateTableSnapshot<K, N, S> snapshot, int keyGroupOffset, DataOutputSerializer out,
            long now) throws IOException {
        StateTable<K, N, S> table = snapshot.table;
        Iterable<StateMap.Entry<K, N, S>> entries = snapshot.entriesInKeyGroup(keyGroupOffset);
        StateKind kind = table.metaInfo.kind();
        TtlSnapshotFilter ttl = table.ttlFilter;
        int count = 0;
        for (StateMap.Entry<K, N, S> e : entries) {
            if (e != null) {
                S value = table.valueOf(e);
                switch (kind) {
                    case VALUE, REDUCING, AGGREGATING -> {
                        if (ttl != null && ttl.isExpired((TtlValue<?>) value, now)) {
                            continue;
                        }
                        writeKeyAndNamespace(table, e, out);
                        valueScratch.clear();
                        table.stateSerializer.serialize(value, valueScratch);
                        KeyedSnapshotWriter.writeBytes(out, valueScratch);
                    }
                    case LIST -> {
                        if (!writeList(table, e, (List) value,
                                ((ListSerializer) table.stateSerializer).getElementSerializer(), ttl, now, out)) {
                            continue;
                        }
                    }
                    case MAP -> {
                        if (!writeMap(table, e, (Map) value, (MapSerializer) table.stateSerializer, ttl, now, out)) {
                            continue;
                        }
                    }
                    case PRIORITY_QUEUE -> throw new IllegalStateException("state '" + table.name + "' is a queue");
                }
                count++;
            }
        }
        return count;
    }

    private <K, N, S, E> boolean writeList(StateTable<K, N, S> table, StateMap.Entry<K, N, S> e, List<E> list,
            TypeSerializer<E> elementSerializer, TtlSnapshotFilter ttl, long now, DataOutputSerializer out)
            throws IOException {
        int n = list.size();
        int live = n;
        if (ttl != null) {
            for (int i = 0; i < n; i++) {
                if (ttl.isExpired((TtlValue<?>) list.get(i), now)) {
                    live--;
                }
            }
        }
        if (live == 0) {
            return false;
        }
        writeKeyAndNamespace(table, e, out);
        out.writeVarInt(live);
        for (int i = 0; i < n; i++) {
            E element = list.get(i);
            if (element == null) {
                throw new IllegalStateException("list state '" + table.name + "' holds a null element for key "
                        + e.key + ": the list returned by get() was changed to contain null");
            }
            if (ttl != null && ttl.isExpired((TtlValue<?>) element, now)) {
                continue;
            }
            valueScratch.clear();
            elementSerializer.serialize(element, valueScratch);
            KeyedSnapshotWriter.writeBytes(out, valueScratch);
        }
        return true;
    }

    private <K, N, S, UK, UV> boolean writeMap(StateTable<K, N, S> table, StateMap.Entry<K, N, S> e,
            Map<UK, UV> map, MapSerializer<UK, UV> serializer, TtlSnapshotFilter ttl, long now,
            DataOutputSerializer out) throws IOException {
        int live = map.size();
        if (ttl != null) {
            for (UV value : map.values()) {
                if (ttl.isExpired((TtlValue<?>) value, now)) {
                    live--;
                }
            }
        }
        if (live == 0) {
            return false;
        }
        writeKeyAndNamespace(table, e, out);
        out.writeVarInt(live);
        TypeSerializer<UK> keySerializer = serializer.getKeySerializer();
        TypeSerializer<UV> valueSerializer = serializer.getValueSerializer();
        for (Map.Entry<UK, UV> entry : map.entrySet()) {
            UV value = entry.getValue();
            if (ttl != null && ttl.isExpired((TtlValue<?>) value, now)) {
                continue;
            }
            valueScratch.clear();
            keySerializer.serialize(entry.getKey(), valueScratch);
            KeyedSnapshotWriter.writeBytes(out, valueScratch);
            if (value == null) {
                out.writeBoolean(false);
            } else {
                out.writeBoolean(true);
                valueScratch.clear();
                valueSerializer.serialize(value, valueScratch);
                KeyedSnapshotWriter.writeBytes(out, valueScratch);
            }
        }
        return true;
    }

    private <K, N, S> void writeKeyAndNamespace(StateTable<K, N, S> table, StateMap.Entry<K, N, S> e,
            DataOutputSerializer out) throws IOException {
        keyScratch.clear();
        table.keySerializer.serialize(e.key, keyScratch);
        table.namespaceSerializer.serialize(e.namespace, keyScratch);
        KeyedSnapshotWriter.writeBytes(out, keyScratch);
    }

    /** Writes the elements of one key group's queue, as a snapshot copied them, into {@code out}; returns how many. */
    @SuppressWarnings("unchecked")
    <T> int writeQueue(Object[] elements, TypeSerializer<T> serializer, DataOutputSerializer out) throws IOException {
        for (Object element : elements) {
            valueScratch.clear();
            serializer.serialize((T) element, valueScratch);
            KeyedSnapshotWriter.writeBytes(out, valueScratch);
        }
        return elements.length;
    }

    // ------------------------------------------------------------------ restoring

    /** Decodes a restored section of {@code table}'s state into the map of its key group. */
    @SuppressWarnings({"unchecked", "rawtypes"})
    <K, N, S> void restore(StateTable<K, N, S> table, SnapshotSection section, int keyGroupOffset) throws IOException {
        StateKind kind = table.metaInfo.kind();
        SnapshotEntryCursor c = section.entries();
        while (c.next()) {
            in.setBuffer(c.array(), c.keyOffset(), c.keyLength());
            K key = decodePart(table.keySerializer, c, "key", false);
            N namespace = decodePart(table.namespaceSerializer, c, "namespace", true);
            int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, numberOfKeyGroups);
            if (keyGroup != section.keyGroup()) {
                throw c.corrupt("key " + key + " belongs to key group " + keyGroup + ": its hashCode() differs from"
                        + " when the snapshot was taken (keys need a value-based hashCode, not an enum's or an"
                        + " identity hash code), or the snapshot is corrupt");
            }
            S value;
            switch (kind) {
                case VALUE, REDUCING, AGGREGATING -> {
                    in.setBuffer(c.array(), c.valueOffset(), c.valueLength());
                    value = decodePart(table.stateSerializer, c, "value", true);
                }
                case LIST -> {
                    TypeSerializer<Object> elementSerializer = ((ListSerializer) table.stateSerializer).getElementSerializer();
                    ArrayList<Object> list = new ArrayList<>(c.size());
                    for (int i = 0; i < c.size(); i++) {
                        in.setBuffer(c.array(), c.elementOffset(i), c.elementLength(i));
                        list.add(decodePart(elementSerializer, c, "list element " + i, true));
                    }
                    value = (S) list;
                }
                case MAP -> {
                    MapSerializer<Object, Object> serializer = (MapSerializer) table.stateSerializer;
                    HashMap<Object, Object> userMap = new HashMap<>(Math.max(4, c.size() * 4 / 3 + 1));
                    for (int i = 0; i < c.size(); i++) {
                        in.setBuffer(c.array(), c.userKeyOffset(i), c.userKeyLength(i));
                        Object userKey = decodePart(serializer.getKeySerializer(), c, "key of map entry " + i, true);
                        Object userValue = null;
                        if (c.hasUserValue(i)) {
                            in.setBuffer(c.array(), c.userValueOffset(i), c.userValueLength(i));
                            userValue = decodePart(serializer.getValueSerializer(), c, "value of map entry " + i, true);
                        }
                        userMap.put(userKey, userValue);
                    }
                    value = (S) userMap;
                }
                default -> throw c.corrupt("a " + kind + " section cannot restore keyed state");
            }
            if (kind == StateKind.LIST || kind == StateKind.MAP) {
                if (c.size() == 0) {
                    continue; // the heap store never keeps empty lists or maps
                }
            }
            table.putRestored(keyGroupOffset, key, namespace, value);
        }
    }

    /** Decodes a restored queue section into {@code queue}. */
    <T extends HeapPriorityQueueElement> void restoreQueue(
            KeyGroupSnapshotQueue<T> queue, TypeSerializer<T> serializer,
            SnapshotSection section) throws IOException {
        SnapshotEntryCursor c = section.entries();
        while (c.next()) {
            in.setBuffer(c.array(), c.keyOffset(), c.keyLength());
            T element = decodePart(serializer, c, "element", true);
            int keyGroup = queue.keyGroupOf(element);
            if (keyGroup != section.keyGroup()) {
                throw c.corrupt("element " + element + " belongs to key group " + keyGroup + ": its key's hashCode()"
                        + " differs from when the snapshot was taken, or the snapshot is corrupt");
            }
            queue.add(element);
        }
    }

    /**
     * Reads one value from {@link #in}; with {@code last}, also checks that it used all bytes of its
     * part, which catches a serializer that reads differently from the one that wrote.
     */
    private <T> T decodePart(TypeSerializer<T> serializer, SnapshotEntryCursor c, String part, boolean last)
            throws IOException {
        T value;
        try {
            value = serializer.deserialize(in);
        } catch (IOException | RuntimeException e) {
            throw c.corrupt("cannot decode the " + part + " with " + serializer + ": " + e.getMessage(), e);
        }
        if (last && in.available() != 0) {
            throw c.corrupt("the " + part + " left " + in.available() + " of its bytes unread by " + serializer
                    + ": the serializer differs from the one that wrote the snapshot");
        }
        if (value == null) {
            throw c.corrupt("the " + part + " decoded to null");
        }
        return value;
    }
}
