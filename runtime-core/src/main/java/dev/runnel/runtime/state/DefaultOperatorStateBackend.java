package dev.runnel.runtime.state;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Operator state on the heap: list states, union list states and broadcast states of one operator subtask.
 *
 * <p>Snapshot blob (big-endian): {@code int magic, int version, int stateCount}, then per state its name,
 * mode and the type of its elements (for messages and compatibility checks), then the elements of every
 * state one after the other. The handle records where each element starts (a broadcast state's whole map is
 * one element: its size, then the entries), so that redistribution on rescale only rewrites offsets and
 * never reads the elements. A restore reads exactly the offsets its handles list.
 *
 * <p>Restored elements stay serialized until the state is registered, since only the descriptor knows the
 * serializer. Task thread only; snapshots may be materialized on another thread.
 */
public final class DefaultOperatorStateBackend implements OperatorStateBackend {

    static final int MAGIC = 0x524F5053; // "ROPS"
    static final int VERSION = 1;

    private final String owner;
    private final SerializerConfig serializerConfig;
    private final Map<String, ListStateImpl<?>> listStates = new LinkedHashMap<>();
    private final Map<String, BroadcastEntry<?, ?>> broadcastStates = new LinkedHashMap<>();
    private final Map<String, Restored> restored;

    /**
     * @param owner names the operator and subtask in messages
     * @param restoredState the handles to restore from (already redistributed for this subtask); empty on a fresh start
     */
    public DefaultOperatorStateBackend(String owner, SerializerConfig serializerConfig,
            Collection<OperatorStateHandle> restoredState) throws IOException {
        this.owner = owner;
        this.serializerConfig = serializerConfig;
        this.restored = readRestored(restoredState);
    }

    @Override
    public <S> ListState<S> getListState(ListStateDescriptor<S> descriptor) throws Exception {
        return listState(descriptor, OperatorStateHandle.Mode.SPLIT_DISTRIBUTE);
    }

    @Override
    public <S> ListState<S> getUnionListState(ListStateDescriptor<S> descriptor) throws Exception {
        return listState(descriptor, OperatorStateHandle.Mode.UNION);
    }

    @SuppressWarnings("unchecked")
    private <S> ListState<S> listState(ListStateDescriptor<S> descriptor, OperatorStateHandle.Mode mode)
            throws IOException {
        String name = descriptor.getName();
        ListStateImpl<?> existing = listStates.get(name);
        if (existing != null) {
            if (existing.mode != mode) {
                throw new IllegalStateException("Operator state '" + name + "' of " + owner + " is registered as "
                        + describe(existing.mode) + " and cannot be used as " + describe(mode) + " too");
            }
            return (ListState<S>) existing;
        }
        if (broadcastStates.containsKey(name)) {
            throw new IllegalStateException("Operator state '" + name + "' of " + owner
                    + " is a broadcast state; list states need a name of their own");
        }
        descriptor.initializeSerializerUnlessSet(serializerConfig);
        TypeSerializer<S> serializer = descriptor.getElementSerializer();
        ListStateImpl<S> state = new ListStateImpl<>(name, mode, serializer);
        Restored from = restored.remove(name);
        if (from != null) {
            from.check(name, mode, typeOf(serializer), owner);
            for (Part part : from.parts) {
                for (long offset : part.offsets) {
                    state.elements.add(serializer.deserialize(part.at(offset)));
                }
            }
        }
        listStates.put(name, state);
        return state;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> descriptor) throws Exception {
        String name = descriptor.getName();
        BroadcastEntry<?, ?> existing = broadcastStates.get(name);
        if (existing != null) {
            return (BroadcastState<K, V>) existing.state;
        }
        if (listStates.containsKey(name)) {
            throw new IllegalStateException("Operator state '" + name + "' of " + owner
                    + " is a list state; broadcast states need a name of their own");
        }
        descriptor.initializeSerializerUnlessSet(serializerConfig);
        BroadcastEntry<K, V> entry = new BroadcastEntry<>(new HeapBroadcastState<>(name), descriptor.getKeySerializer(),
                descriptor.getValueSerializer());
        Restored from = restored.remove(name);
        if (from != null) {
            from.check(name, OperatorStateHandle.Mode.BROADCAST, entry.type(), owner);
            // Every old subtask held the same map; one copy is all a new subtask needs.
            Part first = from.parts.stream().filter(p -> p.offsets.length > 0).findFirst().orElse(null);
            if (first != null) {
                DataInputDeserializer in = first.at(first.offsets[0]);
                int size = in.readInt();
                for (int i = 0; i < size; i++) {
                    entry.state.put(entry.keySerializer.deserialize(in), entry.valueSerializer.deserialize(in));
                }
            }
        }
        broadcastStates.put(name, entry);
        return entry.state;
    }

    /** The broadcast state {@code name} as the heap map it is, for the operators that hand out read-only views. */
    @SuppressWarnings("unchecked")
    public <K, V> HeapBroadcastState<K, V> getHeapBroadcastState(MapStateDescriptor<K, V> descriptor) throws Exception {
        return (HeapBroadcastState<K, V>) getBroadcastState(descriptor);
    }

    @Override
    public Set<String> getRegisteredStateNames() {
        return Collections.unmodifiableSet(listStates.keySet());
    }

    @Override
    public Set<String> getRegisteredBroadcastStateNames() {
        return Collections.unmodifiableSet(broadcastStates.keySet());
    }

    /**
     * Serializes every state now, on the task thread: operator state is small, and writing it here both
     * copies it safely and keeps user objects off the asynchronous thread. The snapshot only writes the bytes.
     */
    @Override
    public OperatorStateSnapshot snapshotSync() {
        if (listStates.isEmpty() && broadcastStates.isEmpty()) {
            return EMPTY_SNAPSHOT;
        }
        try {
            DataOutputSerializer out = new DataOutputSerializer(256);
            out.writeInt(MAGIC);
            out.writeInt(VERSION);
            out.writeInt(listStates.size() + broadcastStates.size());
            for (ListStateImpl<?> state : listStates.values()) {
                writeHeader(out, state.name, state.mode, typeOf(state.serializer));
            }
            for (BroadcastEntry<?, ?> entry : broadcastStates.values()) {
                writeHeader(out, entry.state.getName(), OperatorStateHandle.Mode.BROADCAST, entry.type());
            }
            Map<String, OperatorStateHandle.StateMetaInfo> offsets = new HashMap<>();
            for (ListStateImpl<?> state : listStates.values()) {
                offsets.put(state.name, new OperatorStateHandle.StateMetaInfo(state.write(out), state.mode));
            }
            for (BroadcastEntry<?, ?> entry : broadcastStates.values()) {
                offsets.put(entry.state.getName(), new OperatorStateHandle.StateMetaInfo(
                        new long[] {out.length()}, OperatorStateHandle.Mode.BROADCAST));
                entry.write(out);
            }
            return new SerializedSnapshot(out.getCopyOfBuffer(), offsets);
        } catch (IOException e) {
            throw new IllegalStateException("Could not serialize the operator state of " + owner + ": " + e, e);
        }
    }

    @Override
    public void close() {
        listStates.clear();
        broadcastStates.clear();
    }

    private static void writeHeader(DataOutputSerializer out, String name, OperatorStateHandle.Mode mode, String type)
            throws IOException {
        StringSerializer.INSTANCE.serialize(name, out);
        out.writeByte(mode.ordinal());
        StringSerializer.INSTANCE.serialize(type, out);
    }

    private static String typeOf(TypeSerializer<?> serializer) {
        return serializer.getClass().getName();
    }

    private static String describe(OperatorStateHandle.Mode mode) {
        return switch (mode) {
            case SPLIT_DISTRIBUTE -> "a list state (getListState)";
            case UNION -> "a union list state (getUnionListState)";
            case BROADCAST -> "a broadcast state";
        };
    }

    /** Reads every handle's header and keeps, per state, the blob and the offsets of its elements. */
    private Map<String, Restored> readRestored(Collection<OperatorStateHandle> handles) throws IOException {
        Map<String, Restored> states = new HashMap<>();
        for (OperatorStateHandle handle : handles) {
            byte[] blob = readFully(handle);
            Map<String, Header> headers = readHeaders(blob, handle);
            for (Map.Entry<String, OperatorStateHandle.StateMetaInfo> entry
                    : handle.getStateNameToPartitionOffsets().entrySet()) {
                String name = entry.getKey();
                Header header = headers.get(name);
                if (header == null) {
                    throw new CorruptDataException("Operator state snapshot " + handle.getDelegateStateHandle().describe()
                            + " of " + owner + " lists state '" + name + "' in its handle but not in its header");
                }
                OperatorStateHandle.StateMetaInfo meta = entry.getValue();
                for (long offset : meta.offsets()) {
                    if (offset < 0 || offset >= blob.length) {
                        throw new CorruptDataException("Operator state snapshot " + handle.getDelegateStateHandle()
                                .describe() + " of " + owner + ": state '" + name + "' has an element at offset "
                                + offset + " but the snapshot has " + blob.length + " bytes");
                    }
                }
                Restored previous = states.get(name);
                if (previous == null) {
                    states.put(name, new Restored(header, List.of(new Part(blob, meta.offsets()))));
                } else {
                    List<Part> parts = new ArrayList<>(previous.parts);
                    parts.add(new Part(blob, meta.offsets()));
                    states.put(name, new Restored(previous.header, parts));
                }
            }
        }
        return states;
    }

    private Map<String, Header> readHeaders(byte[] blob, OperatorStateHandle handle) throws IOException {
        String where = handle.getDelegateStateHandle().describe();
        try {
            DataInputDeserializer in = new DataInputDeserializer(blob);
            int magic = in.readInt();
            if (magic != MAGIC) {
                throw new CorruptDataException("Operator state snapshot " + where + " of " + owner + " starts with 0x"
                        + Integer.toHexString(magic) + ", not Runnel's operator state magic number 0x"
                        + Integer.toHexString(MAGIC) + ": it is not an operator state snapshot, or it is corrupt");
            }
            int version = in.readInt();
            if (version != VERSION) {
                throw new CorruptDataException("Operator state snapshot " + where + " of " + owner + " has format version "
                        + version + "; this Runnel reads version " + VERSION);
            }
            int count = in.readInt();
            Map<String, Header> headers = new HashMap<>();
            for (int i = 0; i < count; i++) {
                String name = StringSerializer.INSTANCE.deserialize(in);
                int mode = in.readUnsignedByte();
                if (mode >= OperatorStateHandle.Mode.values().length) {
                    throw new CorruptDataException("Operator state snapshot " + where + " of " + owner + ": state '"
                            + name + "' has unknown distribution mode " + mode);
                }
                headers.put(name, new Header(OperatorStateHandle.Mode.values()[mode], StringSerializer.INSTANCE.deserialize(in)));
            }
            return headers;
        } catch (java.io.EOFException e) {
            throw new CorruptDataException("Operator state snapshot " + where + " of " + owner
                    + " ends inside its header: it is truncated", e);
        }
    }

    private static byte[] readFully(OperatorStateHandle handle) throws IOException {
        long size = handle.getStateSize();
        if (size > Integer.MAX_VALUE - 16) {
            throw new IOException("Operator state snapshot " + handle.getDelegateStateHandle().describe() + " has "
                    + size + " bytes; operator state is kept in memory and must stay below 2 GiB");
        }
        ByteBuffer buffer = ByteBuffer.allocate((int) size);
        try (SeekableByteChannel channel = handle.openChannel()) {
            while (buffer.hasRemaining()) {
                if (channel.read(buffer) < 0) {
                    throw new CorruptDataException("Operator state snapshot " + handle.getDelegateStateHandle().describe()
                            + " has " + buffer.position() + " bytes but its handle says " + size + ": it is truncated");
                }
            }
        }
        return buffer.array();
    }

    private record Header(OperatorStateHandle.Mode mode, String type) {}

    /** The elements of one state in one old subtask's blob. */
    private record Part(byte[] blob, long[] offsets) {

        DataInputDeserializer at(long offset) {
            DataInputDeserializer in = new DataInputDeserializer();
            in.setBuffer(blob, (int) offset, blob.length - (int) offset);
            return in;
        }
    }

    /** A restored state not registered yet: its elements, still serialized, possibly from several old subtasks. */
    private record Restored(Header header, List<Part> parts) {

        void check(String name, OperatorStateHandle.Mode mode, String type, String owner) {
            if (header.mode != mode) {
                throw new IllegalStateException("Operator state '" + name + "' of " + owner + " was written as "
                        + describe(header.mode) + " but is now registered as " + describe(mode)
                        + "; register it the way it was written, or give the new state another name");
            }
            if (!header.type.equals(type)) {
                throw new IllegalStateException("Operator state '" + name + "' of " + owner + " was written with "
                        + header.type + " but is now registered with " + type
                        + ", which cannot read it; keep the type, or give the new state another name");
            }
        }
    }

    private static final class ListStateImpl<S> implements ListState<S> {

        final String name;
        final OperatorStateHandle.Mode mode;
        final TypeSerializer<S> serializer;
        final ArrayList<S> elements = new ArrayList<>();

        ListStateImpl(String name, OperatorStateHandle.Mode mode, TypeSerializer<S> serializer) {
            this.name = name;
            this.mode = mode;
            this.serializer = serializer;
        }

        @Override
        public Iterable<S> get() {
            return elements;
        }

        @Override
        public void add(S value) {
            elements.add(java.util.Objects.requireNonNull(value, "operator list state does not hold null"));
        }

        @Override
        public void update(List<S> values) {
            elements.clear();
            addAll(values);
        }

        @Override
        public void addAll(List<S> values) {
            if (values == null) {
                return;
            }
            for (S value : values) {
                add(value);
            }
        }

        @Override
        public void clear() {
            elements.clear();
        }

        long[] write(DataOutputSerializer out) throws IOException {
            long[] offsets = new long[elements.size()];
            for (int i = 0; i < offsets.length; i++) {
                offsets[i] = out.length();
                serializer.serialize(elements.get(i), out);
            }
            return offsets;
        }
    }

    private record BroadcastEntry<K, V>(HeapBroadcastState<K, V> state, TypeSerializer<K> keySerializer,
            TypeSerializer<V> valueSerializer) {

        String type() {
            return keySerializer.getClass().getName() + " -> " + valueSerializer.getClass().getName();
        }

        void write(DataOutputSerializer out) throws IOException {
            Map<K, V> map = state.map();
            out.writeInt(map.size());
            for (Map.Entry<K, V> e : map.entrySet()) {
                keySerializer.serialize(e.getKey(), out);
                valueSerializer.serialize(e.getValue(), out);
            }
        }
    }

    private static final OperatorStateSnapshot EMPTY_SNAPSHOT = new OperatorStateSnapshot() {
        @Override
        public OperatorStateHandle materialize(CheckpointStreamFactory streams) {
            return null;
        }

        @Override
        public void release() {}
    };

    /** Bytes serialized on the task thread, written to one exclusive blob later. */
    private static final class SerializedSnapshot implements OperatorStateSnapshot {

        private final byte[] bytes;
        private final Map<String, OperatorStateHandle.StateMetaInfo> offsets;

        SerializedSnapshot(byte[] bytes, Map<String, OperatorStateHandle.StateMetaInfo> offsets) {
            this.bytes = bytes;
            this.offsets = offsets;
        }

        @Override
        public OperatorStateHandle materialize(CheckpointStreamFactory streams) throws IOException {
            try (CheckpointStateOutputStream out = streams.createCheckpointStateOutputStream(
                    CheckpointedStateScope.EXCLUSIVE)) {
                out.write(bytes);
                return new OperatorStreamStateHandle(offsets, out.closeAndGetHandle());
            }
        }

        @Override
        public void release() {}
    }
}
