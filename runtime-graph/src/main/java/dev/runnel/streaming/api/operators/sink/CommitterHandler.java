package dev.runnel.streaming.api.operators.sink;

import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.OperatorStateStore;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.connector.sink2.Committer;
import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.NavigableMap;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The committer side of a two-phase committing sink, inside {@link SinkWriterOperator}: keeps the committables
 * of each checkpoint until that checkpoint completes, stores them in operator state in between, and commits.
 *
 * <pre>
 *   barrier N   add(N, writer.prepareCommit())        pending: {.., N: [c1, c2]}
 *   snapshot N  all pending ──► list state            (they survive a failure from here on)
 *   complete N  commit every checkpoint ≤ N           pending: {}   (an aborted N waits for the next)
 *   restore     read list state, commit it all        (each of those checkpoints is complete: we restore one)
 *   end input   add(EOI, prepareCommit()), commit all, retrying up to MAX_RETRIES rounds
 * </pre>
 *
 * <p>State element (big-endian): {@code long checkpointId, int serializerVersion, int length, bytes}, one per
 * committable, in a split-distributed list: after a rescale any subtask may commit any committable, which is
 * fine for committers that must be idempotent anyway.
 *
 * <p>Task thread only.
 */
final class CommitterHandler<CommT> implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(CommitterHandler.class);

    /** Operator state name of the pending committables, as Flink's committer operator names it. */
    static final String STATE_NAME = "streaming_committer_raw_states";

    /** The checkpoint id the committables of the end of input are kept under: after every real checkpoint. */
    static final long END_OF_INPUT = Long.MAX_VALUE;

    /** Attempts a committable may ask to retry before the subtask fails. */
    static final int MAX_RETRIES = 10;

    private final Committer<CommT> committer;
    private final SimpleVersionedSerializer<CommT> serializer;
    private final ListState<byte[]> state;
    private final String owner;
    private final NavigableMap<Long, List<Request<CommT>>> pending = new TreeMap<>();

    /**
     * Registers (and restores) the committable state in {@code store}; restored committables are pending
     * under their checkpoints until {@link #commitUpTo} is called.
     *
     * @param owner names the sink and subtask in messages
     */
    CommitterHandler(Committer<CommT> committer, SimpleVersionedSerializer<CommT> serializer, OperatorStateStore store,
            String owner) throws Exception {
        this.committer = committer;
        this.serializer = serializer;
        this.owner = owner;
        this.state = store.getListState(new ListStateDescriptor<>(STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        for (byte[] element : state.get()) {
            restore(element);
        }
    }

    /** Committables prepared for checkpoint {@code checkpointId} (or {@link #END_OF_INPUT}). */
    void add(long checkpointId, Collection<CommT> committables) {
        if (committables.isEmpty()) {
            return;
        }
        List<Request<CommT>> list = pending.computeIfAbsent(checkpointId, id -> new ArrayList<>());
        for (CommT committable : committables) {
            list.add(new Request<>(committable, 0));
        }
    }

    /** Whether anything waits to be committed. */
    boolean hasPending() {
        return !pending.isEmpty();
    }

    /** Writes every pending committable (of all checkpoints not committed yet) into the operator state. */
    void snapshotState() throws Exception {
        List<byte[]> elements = new ArrayList<>();
        for (Map.Entry<Long, List<Request<CommT>>> entry : pending.entrySet()) {
            for (Request<CommT> request : entry.getValue()) {
                elements.add(serialize(entry.getKey(), request.committable));
            }
        }
        state.update(elements);
    }

    /**
     * Commits the committables of every checkpoint up to {@code checkpointId}, once. Those asking to retry stay
     * pending for the next call.
     */
    void commitUpTo(long checkpointId) throws IOException, InterruptedException {
        NavigableMap<Long, List<Request<CommT>>> due = pending.headMap(checkpointId, true);
        if (due.isEmpty()) {
            return;
        }
        List<Request<CommT>> requests = new ArrayList<>();
        due.values().forEach(requests::addAll);
        List<Request<CommT>> retries = attempt(requests);
        due.clear();
        if (!retries.isEmpty()) {
            // Kept under the checkpoint just completed: committed with the next one that completes.
            pending.computeIfAbsent(checkpointId, id -> new ArrayList<>()).addAll(retries);
        }
    }

    /** Commits everything pending, retrying right away (with a short back-off) until done or out of retries. */
    void commitAll() throws IOException, InterruptedException {
        for (int round = 0; hasPending(); round++) {
            if (round > 0) {
                Thread.sleep(Math.min(100L, 5L << Math.min(round, 5)));
            }
            commitUpTo(END_OF_INPUT);
        }
    }

    /** Commits {@code requests} once; returns those to try again. */
    private List<Request<CommT>> attempt(List<Request<CommT>> requests) throws IOException, InterruptedException {
        committer.commit(new ArrayList<Committer.CommitRequest<CommT>>(requests));
        List<Request<CommT>> retries = new ArrayList<>();
        for (Request<CommT> request : requests) {
            switch (request.outcome) {
                case NONE, ALREADY_COMMITTED -> { }
                case FAILED_KNOWN -> LOG.warn("Sink {} dropped committable {}: its commit failed for a known reason",
                        owner, request.committable, request.failure);
                case FAILED_UNKNOWN -> throw new IOException("Sink " + owner + " could not commit " + request.committable
                        + ": " + request.failure, request.failure);
                case RETRY -> {
                    if (request.retries + 1 > MAX_RETRIES) {
                        throw new IOException("Sink " + owner + " gave up committing " + request.committable + " after "
                                + MAX_RETRIES + " retries that the committer asked for");
                    }
                    retries.add(new Request<>(request.committable, request.retries + 1));
                }
            }
        }
        return retries;
    }

    private byte[] serialize(long checkpointId, CommT committable) throws IOException {
        byte[] bytes = serializer.serialize(committable);
        ByteArrayOutputStream buffer = new ByteArrayOutputStream(bytes.length + 16);
        try (DataOutputStream out = new DataOutputStream(buffer)) {
            out.writeLong(checkpointId);
            out.writeInt(serializer.getVersion());
            out.writeInt(bytes.length);
            out.write(bytes);
        }
        return buffer.toByteArray();
    }

    private void restore(byte[] element) throws IOException {
        try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(element))) {
            long checkpointId = in.readLong();
            int version = in.readInt();
            byte[] bytes = new byte[in.readInt()];
            in.readFully(bytes);
            pending.computeIfAbsent(checkpointId, id -> new ArrayList<>())
                    .add(new Request<>(serializer.deserialize(version, bytes), 0));
        } catch (IOException e) {
            throw new IOException("Cannot restore the pending committables of sink " + owner + ": " + e, e);
        }
    }

    @Override
    public void close() throws Exception {
        committer.close();
    }

    /** Pending committables, for tests: checkpoint id to committables. */
    NavigableMap<Long, List<CommT>> pendingCommittables() {
        NavigableMap<Long, List<CommT>> view = new TreeMap<>();
        pending.forEach((id, requests) -> view.put(id, requests.stream().map(r -> r.committable).toList()));
        return view;
    }

    private enum Outcome { NONE, ALREADY_COMMITTED, FAILED_KNOWN, FAILED_UNKNOWN, RETRY }

    /** One commit attempt of one committable; the committer's last signal wins. */
    private static final class Request<CommT> implements Committer.CommitRequest<CommT> {
        private CommT committable;
        private final int retries;
        private Outcome outcome = Outcome.NONE;
        private Throwable failure;

        Request(CommT committable, int retries) {
            this.committable = committable;
            this.retries = retries;
        }

        @Override
        public CommT getCommittable() {
            return committable;
        }

        @Override
        public int getNumberOfRetries() {
            return retries;
        }

        @Override
        public void signalFailedWithKnownReason(Throwable t) {
            outcome = Outcome.FAILED_KNOWN;
            failure = t;
        }

        @Override
        public void signalFailedWithUnknownReason(Throwable t) {
            outcome = Outcome.FAILED_UNKNOWN;
            failure = t;
        }

        @Override
        public void retryLater() {
            outcome = Outcome.RETRY;
        }

        @Override
        public void updateAndRetryLater(CommT committable) {
            this.committable = committable;
            outcome = Outcome.RETRY;
        }

        @Override
        public void signalAlreadyCommitted() {
            outcome = Outcome.ALREADY_COMMITTED;
        }
    }
}
