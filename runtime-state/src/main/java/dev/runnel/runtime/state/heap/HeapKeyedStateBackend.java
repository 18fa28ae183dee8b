package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
import dev.runnel.runtime.state.snapshot.format.SerializerIdentity;
import dev.runnel.runtime.state.snapshot.format.SnapshotSection;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.ttl.TtlSnapshotFilter;
import dev.runnel.runtime.state.ttl.TtlStateFactory;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The heap store: keyed state and timers as Java objects on the JVM heap, in hash maps per state
 * ({@link StateTable}, {@link StateMap}: per key group for a key's own state, per namespace shard for
 * window state), timers in {@link KeyGroupPartitionedPriorityQueue}s of
 * {@link BucketedPriorityQueueSet}s (timers by timestamp) or {@link HeapPriorityQueueSet}s (any other
 * order). Fast (no serialization on access; values are held by reference,
 * as in Flink's heap backend) and bounded by the heap.
 *
 * <p>Snapshots are written synchronously in Runnel's shared format, so they restore into this store
 * or the RocksDB store, at any parallelism. Restores read the key groups of this backend's range from
 * every handle at construction, verifying checksums; since serializers are only known once operators
 * register their states, each state's sections are kept raw and decoded on registration (after a
 * serializer-identity check). States that are never registered are written into later snapshots
 * unchanged. Expired entries of TTL state are left out of snapshots.
 *
 * <p>Contract: task thread only, no locks. Keys, namespaces and stored values are held by reference
 * and must not be mutated in ways that change their {@code equals}/{@code hashCode} while stored. Null
 * keys and namespaces are rejected. {@link #close()} drops everything; the backend is unusable after.
 *
 * @param <K> the key type
 */
public final class HeapKeyedStateBackend<K> implements KeyedStateBackend<K> {

    /** A registered keyed state: the object handed out and what it was registered with. */
    private record Registration(State state, StateDescriptor.Type type, TypeSerializer<?> namespaceSerializer,
            TypeSerializer<?> valueSerializer, StateTtlConfig ttlConfig) {}

    /** A registered priority queue and its element serializer. */
    private record RegisteredQueue<T extends HeapPriorityQueueElement>(
            KeyGroupPartitionedPriorityQueue<T, ?> queue, TypeSerializer<T> serializer,
            StateMetaInfo metaInfo) {}

    private final String operatorName;
    private final TypeSerializer<K> keySerializer;
    private final int numberOfKeyGroups;
    private final KeyGroupRange keyGroupRange;
    private final int firstKeyGroup;
    private final int lastKeyGroup;
    private final TtlTimeProvider ttlTimeProvider;
    private final SerializerConfig serializerConfig;
    private final HeapKeyContext<K> context = new HeapKeyContext<>();
    private final HeapStateCodec codec;

    /** By name, in registration order (which is snapshot order). */
    private final LinkedHashMap<String, StateTable<K, ?, ?>> tables = new LinkedHashMap<>();
    private final LinkedHashMap<String, Registration> registrations = new LinkedHashMap<>();
    private final LinkedHashMap<String, RegisteredQueue<?>> queues = new LinkedHashMap<>();
    /** Restored states not registered yet. */
    private final LinkedHashMap<String, RestoredState> restored;

    private boolean closed;

    /**
     * Creates the backend and reads the restore state of its key groups.
     *
     * @throws IOException if a snapshot is unreadable, truncated or corrupt (the message names it, the
     *     key group and the state)
     */
    public HeapKeyedStateBackend(KeyedStateBackendParameters<K> parameters) throws IOException {
        this.operatorName = parameters.operatorName() != null ? parameters.operatorName() : parameters.operatorIdentifier();
        this.keySerializer = parameters.keySerializer();
        this.numberOfKeyGroups = parameters.numberOfKeyGroups();
        this.keyGroupRange = parameters.keyGroupRange();
        this.firstKeyGroup = keyGroupRange.getStartKeyGroup();
        this.lastKeyGroup = keyGroupRange.getEndKeyGroup();
        this.ttlTimeProvider = parameters.ttlTimeProvider();
        this.serializerConfig = parameters.serializerConfig();
        this.codec = new HeapStateCodec(numberOfKeyGroups);
        this.context.keyGroup = -1;
        this.restored = RestoredState.read(parameters.restoreState(), keyGroupRange);
    }

    // ------------------------------------------------------------------ keys

    @Override
    public void setCurrentKey(K newKey) {
        if (newKey == null) {
            throw new NullPointerException("operator '" + operatorName + "': the current key must not be null");
        }
        // KeyGroupRangeAssignment.assignToKeyGroup(key) is this, with the key's hash code computed
        // once here because the state tables need it too.
        int hash = newKey.hashCode();
        setKey(newKey, hash, KeyGroupRangeAssignment.computeKeyGroupForKeyHash(hash, numberOfKeyGroups));
    }

    @Override
    public void setCurrentKeyAndKeyGroup(K newKey, int keyGroup) {
        if (newKey == null) {
            throw new NullPointerException("operator '" + operatorName + "': the current key must not be null");
        }
        setKey(newKey, newKey.hashCode(), keyGroup);
    }

    private void setKey(K key, int hash, int keyGroup) {
        if (keyGroup < firstKeyGroup || keyGroup > lastKeyGroup) {
            throw new IllegalArgumentException(String.format("Key %s of operator '%s' belongs to key group %s, which"
                    + " is not in this subtask's %s (of %s key groups): the record was sent to the wrong subtask."
                    + " Keys must have a deterministic hashCode(), and the stream must be partitioned by the same key"
                    + " (keyBy) with the same max parallelism.", key, operatorName, keyGroup, keyGroupRange,
                    numberOfKeyGroups));
        }
        HeapKeyContext<K> c = context;
        c.key = key;
        c.keyHash = hash;
        c.keyGroup = keyGroup;
        c.keyGroupOffset = keyGroup - firstKeyGroup;
        c.version++;
    }

    @Override
    public K getCurrentKey() {
        return context.key;
    }

    @Override
    public int getCurrentKeyGroupIndex() {
        return context.keyGroup;
    }

    @Override
    public KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public int getNumberOfKeyGroups() {
        return numberOfKeyGroups;
    }

    @Override
    public TypeSerializer<K> getKeySerializer() {
        return keySerializer;
    }

    // ------------------------------------------------------------------ keyed state

    @Override
    @SuppressWarnings("unchecked")
    public <N, S extends State, T> S getOrCreateKeyedState(
            TypeSerializer<N> namespaceSerializer, StateDescriptor<S, T> descriptor) throws Exception {
        checkNotClosed();
        Objects.requireNonNull(namespaceSerializer, "namespaceSerializer");
        Objects.requireNonNull(descriptor, "descriptor");
        descriptor.initializeSerializerUnlessSet(serializerConfig);
        String name = descriptor.getName();
        Registration existing = registrations.get(name);
        if (existing != null) {
            checkSameRegistration(existing, namespaceSerializer, descriptor);
            return (S) existing.state();
        }
        if (queues.containsKey(name)) {
            throw new IllegalStateException("Operator '" + operatorName + "' cannot register keyed state '" + name
                    + "': a timer queue of that name exists. Give the state another name.");
        }
        S state = TtlStateFactory.createStateAndWrapWithTtlIfEnabled(
                namespaceSerializer, descriptor, this::createRawState, ttlTimeProvider);
        registrations.put(name, new Registration(state, descriptor.getType(), namespaceSerializer,
                descriptor.getSerializer(), descriptor.getTtlConfig()));
        return state;
    }

    private void checkSameRegistration(Registration existing, TypeSerializer<?> namespaceSerializer,
            StateDescriptor<?, ?> descriptor) {
        String differs = null;
        if (existing.type() != descriptor.getType()) {
            differs = "it is " + existing.type() + " state, requested as " + descriptor.getType();
        } else if (!existing.valueSerializer().equals(descriptor.getSerializer())) {
            differs = "its value serializer is " + SerializerIdentity.of(existing.valueSerializer())
                    + ", requested with " + SerializerIdentity.of(descriptor.getSerializer());
        } else if (!existing.namespaceSerializer().equals(namespaceSerializer)) {
            differs = "its namespace serializer is " + SerializerIdentity.of(existing.namespaceSerializer())
                    + ", requested with " + SerializerIdentity.of(namespaceSerializer);
        } else if (!sameTtl(existing.ttlConfig(), descriptor.getTtlConfig())) {
            differs = "its time-to-live is " + existing.ttlConfig() + ", requested with " + descriptor.getTtlConfig();
        }
        if (differs != null) {
            throw new IllegalStateException("Operator '" + operatorName + "' registered state '" + descriptor.getName()
                    + "' before with a different kind or type: " + differs + ". One name is one state; give the"
                    + " second state another name.");
        }
    }

    private static boolean sameTtl(StateTtlConfig a, StateTtlConfig b) {
        return a.isEnabled() == b.isEnabled()
                && (!a.isEnabled() || (a.getUpdateType() == b.getUpdateType()
                        && a.getStateVisibility() == b.getStateVisibility()
                        && a.getTtl().equals(b.getTtl())));
    }

    /**
     * Creates the plain heap state for {@code descriptor} (TTL-wrapped already if it has a TTL),
     * decoding its restored entries if there are any. Used through {@link TtlStateFactory}.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private <N, SV, S extends State> S createRawState(TypeSerializer<N> namespaceSerializer,
            StateDescriptor<S, SV> descriptor) throws IOException {
        String name = descriptor.getName();
        StateMetaInfo metaInfo = StateMetaInfo.forKeyedState(keySerializer, namespaceSerializer, descriptor);
        TtlSnapshotFilter ttlFilter = descriptor.getTtlConfig().isEnabled()
                ? new TtlSnapshotFilter(descriptor.getTtlConfig(), ttlTimeProvider)
                : null;
        StateTable<K, N, SV> table = new StateTable<>(name, metaInfo, context, keyGroupRange.getNumberOfKeyGroups(),
                keySerializer, namespaceSerializer, descriptor.getSerializer(), ttlFilter,
                descriptor.getType() == StateDescriptor.Type.VALUE,
                // state in namespaces other than the key's own (windows) is created and dropped all the time
                !(namespaceSerializer instanceof VoidNamespaceSerializer));
        RestoredState restoredState = restored.get(name);
        if (restoredState != null) {
            metaInfo.checkCanRestore(restoredState.metaInfo, restoredState.source);
            SnapshotSection[] sections = restoredState.sections;
            for (int i = 0; i < sections.length; i++) {
                if (sections[i] != null) {
                    codec.restore(table, sections[i], i);
                }
            }
        }
        N defaultNamespace = namespaceSerializer instanceof VoidNamespaceSerializer
                ? (N) VoidNamespace.INSTANCE
                : null;
        State state = switch (descriptor.getType()) {
            case VALUE -> new HeapValueState<>(table, defaultNamespace);
            case LIST -> new HeapListState<>((StateTable) table, defaultNamespace);
            case MAP -> new HeapMapState<>((StateTable) table, defaultNamespace);
            case REDUCING -> new HeapReducingState<>(table, defaultNamespace,
                    ((ReducingStateDescriptor<SV>) descriptor).getReduceFunction());
            case AGGREGATING -> new HeapAggregatingState<>(table, defaultNamespace,
                    (AggregateFunction<Object, SV, Object>) ((AggregatingStateDescriptor) descriptor).getAggregateFunction());
        };
        restored.remove(name);
        tables.put(name, table);
        return (S) state;
    }

    @Override
    public <N> Stream<K> getKeys(String stateName, N namespace) {
        checkNotClosed();
        Objects.requireNonNull(namespace, "namespace");
        StateTable<K, ?, ?> table = tables.get(stateName);
        // a copy, so callers may change the state while consuming the stream
        return table == null ? Stream.empty() : table.keys(namespace).stream();
    }

    // ------------------------------------------------------------------ timers

    @Override
    @SuppressWarnings("unchecked")
    public <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> create(
            String stateName,
            TypeSerializer<T> byteOrderedElementSerializer,
            PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor) {
        checkNotClosed();
        Objects.requireNonNull(stateName, "stateName");
        Objects.requireNonNull(byteOrderedElementSerializer, "byteOrderedElementSerializer");
        RegisteredQueue<?> existing = queues.get(stateName);
        if (existing != null) {
            if (!existing.serializer().equals(byteOrderedElementSerializer)) {
                throw new IllegalStateException("Operator '" + operatorName + "' created queue '" + stateName
                        + "' before with element serializer " + SerializerIdentity.of(existing.serializer())
                        + ", now with " + SerializerIdentity.of(byteOrderedElementSerializer)
                        + ". One name is one queue; give the second another name.");
            }
            return (KeyGroupedInternalPriorityQueue<T>) existing.queue();
        }
        if (registrations.containsKey(stateName) || tables.containsKey(stateName)) {
            throw new IllegalStateException("Operator '" + operatorName + "' cannot create timer queue '" + stateName
                    + "': a keyed state of that name exists. Give the queue another name.");
        }
        StateMetaInfo metaInfo = StateMetaInfo.forPriorityQueue(stateName, keySerializer, byteOrderedElementSerializer);
        KeyGroupPartitionedPriorityQueue<T, ?> queue = comparator instanceof LongPriorityComparator<T> byLong
                ? new KeyGroupPartitionedPriorityQueue<>(keyExtractor, comparator,
                        BucketedPriorityQueueSet.factory(byLong), keyGroupRange, numberOfKeyGroups)
                : new KeyGroupPartitionedPriorityQueue<>(keyExtractor, comparator,
                        HeapPriorityQueueSet.factory(), keyGroupRange, numberOfKeyGroups);
        RestoredState restoredState = restored.get(stateName);
        if (restoredState != null) {
            metaInfo.checkCanRestore(restoredState.metaInfo, restoredState.source);
            try {
                for (SnapshotSection section : restoredState.sections) {
                    if (section != null) {
                        codec.restoreQueue(queue, byteOrderedElementSerializer, section);
                    }
                }
            } catch (IOException e) {
                throw new UncheckedIOException(e.getMessage(), e);
            }
            restored.remove(stateName);
        }
        queues.put(stateName, new RegisteredQueue<>(queue, byteOrderedElementSerializer, metaInfo));
        return queue;
    }

    // ------------------------------------------------------------------ snapshots

    @Override
    public KeyGroupRangeOffsets snapshot(KeyGroupRange range, OutputStream out) throws IOException {
        checkNotClosed();
        Objects.requireNonNull(range, "range");
        Objects.requireNonNull(out, "out");
        if (range.getNumberOfKeyGroups() > 0
                && !(keyGroupRange.contains(range.getStartKeyGroup()) && keyGroupRange.contains(range.getEndKeyGroup()))) {
            throw new IllegalArgumentException("Operator '" + operatorName + "' cannot snapshot " + range
                    + ": this backend holds " + keyGroupRange);
        }
        List<StateMetaInfo> metaInfos = new ArrayList<>(tables.size() + queues.size() + restored.size());
        for (StateTable<K, ?, ?> table : tables.values()) {
            metaInfos.add(table.metaInfo);
        }
        for (RegisteredQueue<?> queue : queues.values()) {
            metaInfos.add(queue.metaInfo());
        }
        for (RestoredState state : restored.values()) {
            metaInfos.add(state.metaInfo);
        }
        KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, range, metaInfos);
        long now = ttlTimeProvider.currentTimestamp();
        for (int kg = range.getStartKeyGroup(); kg <= range.getEndKeyGroup(); kg++) {
            writer.startKeyGroup(kg);
            int offset = kg - firstKeyGroup;
            int stateIndex = 0;
            for (StateTable<K, ?, ?> table : tables.values()) {
                DataOutputSerializer section = writer.startSection(stateIndex++);
                writer.endSection(codec.writeKeyGroup(table, offset, section, now));
            }
            for (RegisteredQueue<?> queue : queues.values()) {
                DataOutputSerializer section = writer.startSection(stateIndex++);
                writer.endSection(writeQueue(queue, kg, section));
            }
            for (RestoredState state : restored.values()) {
                SnapshotSection section = state.sections[offset];
                if (section != null) {
                    writer.writeRawSection(stateIndex, section.entryCount(), section.array(), section.offset(),
                            section.length());
                }
                stateIndex++;
            }
        }
        return writer.finish();
    }

    private <T extends HeapPriorityQueueElement> int writeQueue(RegisteredQueue<T> queue, int keyGroup,
            DataOutputSerializer section) throws IOException {
        return codec.writeQueue(queue.queue().getQueueForKeyGroup(keyGroup), queue.serializer(), section);
    }

    // ------------------------------------------------------------------ lifecycle

    /** Drops all state, timers and restored sections. */
    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        for (StateTable<K, ?, ?> table : tables.values()) {
            table.clear();
        }
        tables.clear();
        registrations.clear();
        queues.clear();
        restored.clear();
        context.key = null;
        context.version++;
    }

    private void checkNotClosed() {
        if (closed) {
            throw new IllegalStateException("the keyed state backend of operator '" + operatorName + "' is closed");
        }
    }

    /** The number of entries of state {@code stateName} over all key groups; for tests and metrics. */
    public int numEntries(String stateName) {
        StateTable<K, ?, ?> table = tables.get(stateName);
        return table == null ? 0 : table.size();
    }

    /** The names of restored states no operator has registered yet; for tests and diagnostics. */
    public List<String> pendingRestoredStates() {
        return List.copyOf(restored.keySet());
    }

    @Override
    public String toString() {
        return "HeapKeyedStateBackend{operator=" + operatorName + ", " + keyGroupRange + ", states=" + tables.keySet()
                + ", queues=" + queues.keySet() + ", restoredUnregistered=" + restored.keySet() + '}';
    }
}
