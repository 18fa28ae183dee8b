package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.backend.AbstractKeyedStateBackend;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.state.snapshot.format.KeyedSnapshotWriter;
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
public final class HeapKeyedStateBackend<K> extends AbstractKeyedStateBackend<K> {

    /** A registered priority queue, with what its snapshots need. */
    private record RegisteredQueue<T extends HeapPriorityQueueElement>(
            KeyGroupPartitionedPriorityQueue<T, ?> queue, TypeSerializer<T> serializer,
            StateMetaInfo metaInfo) {}

    private final int firstKeyGroup;
    private final int lastKeyGroup;
    private final HeapKeyContext<K> context = new HeapKeyContext<>();
    private final HeapStateCodec codec;

    /** By name, in registration order (which is snapshot order). */
    private final LinkedHashMap<String, StateTable<K, ?, ?>> tables = new LinkedHashMap<>();
    private final LinkedHashMap<String, RegisteredQueue<?>> queues = new LinkedHashMap<>();
    /** Restored states not registered yet. */
    private final LinkedHashMap<String, RestoredState> restored;

    /**
     * Creates the backend and reads the restore state of its key groups.
     *
     * @throws IOException if a snapshot is unreadable, truncated or corrupt (the message names it, the
     *     key group and the state)
     */
    public HeapKeyedStateBackend(KeyedStateBackendParameters<K> parameters) throws IOException {
        super(parameters);
        this.firstKeyGroup = keyGroupRange.getStartKeyGroup();
        this.lastKeyGroup = keyGroupRange.getEndKeyGroup();
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

    // ------------------------------------------------------------------ keyed state

    /**
     * Creates the plain heap state for {@code descriptor} (TTL-wrapped already if it has a TTL),
     * decoding its restored entries if there are any. Used through {@link TtlStateFactory}.
     */
    @Override
    @SuppressWarnings({"unchecked", "rawtypes"})
    protected <N, SV, S extends State> S createRawState(TypeSerializer<N> namespaceSerializer,
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
        checkOpen();
        Objects.requireNonNull(namespace, "namespace");
        StateTable<K, ?, ?> table = tables.get(stateName);
        // a copy, so callers may change the state while consuming the stream
        return table == null ? Stream.empty() : table.keys(namespace).stream();
    }

    // ------------------------------------------------------------------ timers

    @Override
    protected <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> createQueue(
            String stateName,
            TypeSerializer<T> byteOrderedElementSerializer,
            PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor) {
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
        checkOpen();
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
        if (!markClosed()) {
            return;
        }
        for (StateTable<K, ?, ?> table : tables.values()) {
            table.clear();
        }
        tables.clear();
        queues.clear();
        restored.clear();
        context.key = null;
        context.version++;
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
