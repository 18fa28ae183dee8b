package dev.runnel.runtime.state.backend;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.queue.HeapPriorityQueueElement;
import dev.runnel.runtime.state.queue.KeyExtractorFunction;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.PriorityComparator;
import dev.runnel.runtime.state.ttl.TtlStateFactory;
import java.io.IOException;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * What the heap and the RocksDB store share: the backend's identity (operator, key serializer, key
 * groups), registration of states and timer queues under the rule "one name is one state"
 * ({@link StateRegistry}), time-to-live wrapping ({@link TtlStateFactory}), the checks around a
 * snapshot's synchronous phase and the pending snapshots ({@link AbstractKeyedStateSnapshot}), which
 * closing releases, and the closed flag. A store supplies how it keeps the current key, how it
 * creates a plain state and a queue, how it captures a snapshot, and the rest of closing.
 *
 * <p>Task thread only, like every {@link KeyedStateBackend}; the snapshots it hands out may be
 * written and released from other threads.
 *
 * @param <K> the key type
 */
public abstract class AbstractKeyedStateBackend<K> implements KeyedStateBackend<K> {

    /** Names the operator in messages (its name, or its identifier when it has none). */
    protected final String operatorName;
    protected final TypeSerializer<K> keySerializer;
    /** The max parallelism. */
    protected final int numberOfKeyGroups;
    protected final KeyGroupRange keyGroupRange;
    protected final TtlTimeProvider ttlTimeProvider;
    private final SerializerConfig serializerConfig;
    private final StateRegistry registry;
    /** Snapshots taken and neither written nor released yet; written to by their writing threads too. */
    private final Set<AbstractKeyedStateSnapshot> pendingSnapshots = ConcurrentHashMap.newKeySet();
    private boolean closed;

    protected AbstractKeyedStateBackend(KeyedStateBackendParameters<K> parameters) {
        this.operatorName = parameters.operatorName() != null ? parameters.operatorName() : parameters.operatorIdentifier();
        this.keySerializer = parameters.keySerializer();
        this.numberOfKeyGroups = parameters.numberOfKeyGroups();
        this.keyGroupRange = parameters.keyGroupRange();
        this.ttlTimeProvider = parameters.ttlTimeProvider();
        this.serializerConfig = parameters.serializerConfig();
        this.registry = new StateRegistry(operatorName);
    }

    @Override
    public final KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public final int getNumberOfKeyGroups() {
        return numberOfKeyGroups;
    }

    @Override
    public final TypeSerializer<K> getKeySerializer() {
        return keySerializer;
    }

    // ------------------------------------------------------------------ registration

    @Override
    public final <N, S extends State, T> S getOrCreateKeyedState(
            TypeSerializer<N> namespaceSerializer, StateDescriptor<S, T> descriptor) throws Exception {
        checkOpen();
        Objects.requireNonNull(namespaceSerializer, "namespaceSerializer");
        Objects.requireNonNull(descriptor, "descriptor");
        descriptor.initializeSerializerUnlessSet(serializerConfig);
        S existing = registry.registeredState(namespaceSerializer, descriptor);
        if (existing != null) {
            return existing;
        }
        S state = TtlStateFactory.createStateAndWrapWithTtlIfEnabled(
                namespaceSerializer, descriptor, this::createRawState, ttlTimeProvider);
        registry.addState(namespaceSerializer, descriptor, state);
        return state;
    }

    /**
     * Creates the store's plain state for {@code descriptor}, which is registered for the first time
     * in this run (with a TTL-wrapped serializer if it has a time-to-live, see {@link TtlStateFactory}),
     * including whatever a restore holds for it.
     */
    protected abstract <N, SV, S extends State> S createRawState(
            TypeSerializer<N> namespaceSerializer, StateDescriptor<S, SV> descriptor) throws Exception;

    @Override
    public final <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> create(
            String stateName, TypeSerializer<T> byteOrderedElementSerializer, PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor) {
        checkOpen();
        Objects.requireNonNull(stateName, "stateName");
        Objects.requireNonNull(byteOrderedElementSerializer, "byteOrderedElementSerializer");
        KeyGroupedInternalPriorityQueue<T> existing = registry.registeredQueue(stateName, byteOrderedElementSerializer);
        if (existing != null) {
            return existing;
        }
        KeyGroupedInternalPriorityQueue<T> queue =
                createQueue(stateName, byteOrderedElementSerializer, comparator, keyExtractor);
        registry.addQueue(stateName, byteOrderedElementSerializer, queue);
        return queue;
    }

    /**
     * Creates the store's timer queue {@code stateName}, which is created for the first time in this
     * run and is no keyed state's name, including whatever a restore holds for it.
     */
    protected abstract <T extends HeapPriorityQueueElement> KeyGroupedInternalPriorityQueue<T> createQueue(
            String stateName, TypeSerializer<T> byteOrderedElementSerializer, PriorityComparator<T> comparator,
            KeyExtractorFunction<T> keyExtractor);

    // ------------------------------------------------------------------ snapshots

    @Override
    public final KeyedStateSnapshot snapshotSync(KeyGroupRange range) throws IOException {
        checkOpen();
        Objects.requireNonNull(range, "range");
        if (range.getNumberOfKeyGroups() > 0 && !keyGroupRange.getIntersection(range).equals(range)) {
            throw new IllegalArgumentException("Operator '" + operatorName + "' cannot snapshot " + range
                    + ": this backend holds " + keyGroupRange);
        }
        AbstractKeyedStateSnapshot snapshot = takeSnapshot(range);
        snapshot.trackIn(pendingSnapshots);
        return snapshot;
    }

    /**
     * The synchronous phase of a snapshot of {@code range}, which lies within this backend's range:
     * see {@link KeyedStateBackend#snapshotSync} for what it may cost.
     */
    protected abstract AbstractKeyedStateSnapshot takeSnapshot(KeyGroupRange range) throws IOException;

    /** The number of snapshots neither written nor released; for tests and diagnostics. */
    public final int pendingSnapshotCount() {
        return pendingSnapshots.size();
    }

    // ------------------------------------------------------------------ lifecycle

    /** Fails once the backend is closed. */
    protected final void checkOpen() {
        if (closed) {
            throw new IllegalStateException("The keyed state backend of operator '" + operatorName
                    + "' is closed; its state can no longer be used.");
        }
    }

    /**
     * Marks the backend closed, releases the pending snapshots (waiting for those being written to
     * stop, which they do at their next check) and forgets what was registered; returns false if it
     * was closed already, so that {@link #close()} can be called again harmlessly. Call it before
     * freeing anything a snapshot may read.
     */
    protected final boolean markClosed() {
        if (closed) {
            return false;
        }
        closed = true;
        List<AbstractKeyedStateSnapshot> pending = List.copyOf(pendingSnapshots);
        for (AbstractKeyedStateSnapshot snapshot : pending) {
            snapshot.release(); // all first, so that every write in progress stops at once
        }
        for (AbstractKeyedStateSnapshot snapshot : pending) {
            snapshot.awaitFinished();
        }
        registry.clear();
        return true;
    }
}
