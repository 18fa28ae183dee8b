package dev.runnel.streaming.api.operators.sink;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.OperatorStateStore;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.connector.sink2.CommitterInitContext;
import dev.runnel.api.connector.sink2.CommittingSinkWriter;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.StatefulSinkWriter;
import dev.runnel.api.connector.sink2.SupportsCommitter;
import dev.runnel.api.connector.sink2.SupportsWriterState;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.NavigableMap;
import java.util.OptionalLong;

/**
 * Runs a {@link Sink}: its writer and, for a {@link SupportsCommitter} sink, its committer, in one operator.
 *
 * <pre>
 *   record        writer.write
 *   barrier N     writer.flush(false); committing writer: prepareCommit() ──► pending committables of N
 *   snapshot N    stateful writer: snapshotState(N) ──► list state "writer_raw_states";
 *                 pending committables ──► list state "streaming_committer_raw_states"
 *   complete N    commit the pending committables of every checkpoint ≤ N
 *   restore       restoreWriter(states); commit the restored committables at once
 *   end of input  flush(true); prepareCommit(); commit everything
 * </pre>
 *
 * Flink runs the committer as a separate operator chained after the writer, with committables flowing
 * between them as records; keeping both in one operator gives the same protocol (committables are in the
 * state of the checkpoint they were prepared for, and committed only after it completes) with no extra
 * records and no change to the job graph. Without checkpoints the committables of a streaming job wait for
 * the end of input, as in Flink.
 *
 * <p>Task thread only.
 */
public final class SinkWriterOperator<T> extends AbstractStreamOperator<Object> implements OneInputStreamOperator<T, Object> {

    private static final long serialVersionUID = 1L;

    /** Operator state name of the writer's state, as Flink's writer operator names it. */
    static final String WRITER_STATE_NAME = "writer_raw_states";

    private final Sink<T> sink;
    private transient SinkWriter<T> writer;
    private transient ContextImpl context;
    private transient WriterState<T, ?> writerState;
    private transient Committing<?> committing;

    public SinkWriterOperator(Sink<T> sink) {
        this.sink = sink;
    }

    @Override
    public void initializeState(StateInitializationContext stateContext) throws Exception {
        super.initializeState(stateContext);
        context = new ContextImpl();
        InitContextImpl initContext = new InitContextImpl();
        OperatorStateStore store = stateContext.getOperatorStateStore();
        if (sink instanceof SupportsWriterState<?, ?> stateful) {
            writerState = createWriterState(stateful, store, initContext, stateContext.isRestored());
            writer = writerState.writer;
        } else {
            writer = sink.createWriter(initContext);
        }
        if (sink instanceof SupportsCommitter<?> committer) {
            committing = createCommitting(committer, store, initContext);
            if (stateContext.isRestored()) {
                // What was restored belongs to the checkpoint we restore from, which is complete: commit it now,
                // before anything new is written (Flink's committer does the same on recovery).
                committing.handler.commitUpTo(CommitterHandler.END_OF_INPUT);
            }
        }
    }

    @SuppressWarnings("unchecked")
    private <S> WriterState<T, S> createWriterState(SupportsWriterState<?, S> stateful, OperatorStateStore store,
            WriterInitContext initContext, boolean restored) throws Exception {
        SupportsWriterState<T, S> typed = (SupportsWriterState<T, S>) stateful;
        SimpleVersionedSerializer<S> serializer = typed.getWriterStateSerializer();
        ListState<byte[]> state = store.getListState(
                new ListStateDescriptor<>(WRITER_STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        StatefulSinkWriter<T, S> statefulWriter;
        if (restored) {
            List<S> states = new ArrayList<>();
            readStates(state, serializer, states);
            if (sink instanceof SupportsWriterState.WithCompatibleState compatible) {
                for (String name : compatible.getCompatibleWriterStateNames()) {
                    readStates(store.getListState(new ListStateDescriptor<>(name, BytePrimitiveArraySerializer.INSTANCE)),
                            serializer, states);
                }
            }
            statefulWriter = typed.restoreWriter(initContext, states);
        } else {
            SinkWriter<T> created = sink.createWriter(initContext);
            if (!(created instanceof StatefulSinkWriter<?, ?>)) {
                throw new IllegalStateException("Sink " + sink + " implements SupportsWriterState but its writer "
                        + created.getClass().getName() + " is not a StatefulSinkWriter: return one from createWriter");
            }
            statefulWriter = (StatefulSinkWriter<T, S>) created;
        }
        return new WriterState<>(statefulWriter, serializer, state);
    }

    @SuppressWarnings("unchecked")
    private <C> Committing<C> createCommitting(SupportsCommitter<C> committer, OperatorStateStore store,
            InitContextImpl initContext) throws Exception {
        if (!(writer instanceof CommittingSinkWriter<?, ?>)) {
            throw new IllegalStateException("Sink " + sink + " implements SupportsCommitter but its writer "
                    + writer.getClass().getName() + " is not a CommittingSinkWriter: its writer must prepare the"
                    + " committables");
        }
        CommitterHandler<C> handler = new CommitterHandler<>(committer.createCommitter(initContext),
                committer.getCommittableSerializer(), store,
                "'" + getOperatorName() + "' (" + task.getTaskInfo().getTaskNameWithSubtasks() + ")");
        return new Committing<>((CommittingSinkWriter<T, C>) writer, handler);
    }

    private static <S> void readStates(ListState<byte[]> state, SimpleVersionedSerializer<S> serializer, List<S> into)
            throws Exception {
        for (byte[] element : state.get()) {
            try (DataInputStream in = new DataInputStream(new ByteArrayInputStream(element))) {
                int version = in.readInt();
                byte[] bytes = new byte[in.readInt()];
                in.readFully(bytes);
                into.add(serializer.deserialize(version, bytes));
            }
        }
    }

    @Override
    public void processElement(StreamRecord<T> element) throws Exception {
        // the timestamp, not the record: a record kept in a field would make its value escape (TimestampedCollector)
        context.timestamp = element.getTimestamp();
        context.hasTimestamp = element.hasTimestamp();
        writer.write(element.getValue(), context);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        context.watermark = mark.getTimestamp();
        writer.writeWatermark(mark);
        super.processWatermark(mark);
    }

    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        writer.flush(false);
        if (committing != null) {
            committing.prepare(checkpointId);
        }
    }

    @Override
    public void snapshotState(StateSnapshotContext snapshotContext) throws Exception {
        super.snapshotState(snapshotContext);
        if (writerState != null) {
            writerState.snapshot(snapshotContext.getCheckpointId());
        }
        if (committing != null) {
            committing.handler.snapshotState();
        }
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        if (committing != null) {
            committing.handler.commitUpTo(checkpointId);
        }
    }

    /**
     * End of input: the writer flushes everything. Without checkpoints, everything is committed now; with
     * them, the job's final checkpoint prepares and commits the last committables, so that they become
     * visible only once no restart can replay the records they hold.
     */
    @Override
    public void finish() throws Exception {
        writer.flush(true);
        if (committing != null && !task.isCheckpointingEnabled()) {
            committing.prepare(CommitterHandler.END_OF_INPUT);
            committing.handler.commitAll();
        }
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            try {
                if (committing != null) {
                    committing.handler.close();
                }
            } finally {
                super.close();
            }
        }
    }

    /** The committables waiting for their checkpoint to complete, by checkpoint id; for tests. */
    public NavigableMap<Long, ? extends List<?>> getPendingCommittables() {
        return committing == null ? new java.util.TreeMap<>() : committing.handler.pendingCommittables();
    }

    /** The writer, once the operator is initialized; for tests. */
    public SinkWriter<T> getWriter() {
        return writer;
    }

    /** A stateful writer and where its state goes. */
    private static final class WriterState<T, S> {
        final StatefulSinkWriter<T, S> writer;
        final SimpleVersionedSerializer<S> serializer;
        final ListState<byte[]> state;

        WriterState(StatefulSinkWriter<T, S> writer, SimpleVersionedSerializer<S> serializer, ListState<byte[]> state) {
            this.writer = writer;
            this.serializer = serializer;
            this.state = state;
        }

        void snapshot(long checkpointId) throws Exception {
            List<byte[]> elements = new ArrayList<>();
            for (S s : writer.snapshotState(checkpointId)) {
                byte[] bytes = serializer.serialize(s);
                ByteArrayOutputStream buffer = new ByteArrayOutputStream(bytes.length + 8);
                try (DataOutputStream out = new DataOutputStream(buffer)) {
                    out.writeInt(serializer.getVersion());
                    out.writeInt(bytes.length);
                    out.write(bytes);
                }
                elements.add(buffer.toByteArray());
            }
            state.update(elements);
        }
    }

    /** A committing writer and its committer. */
    private static final class Committing<C> {
        final CommittingSinkWriter<?, C> writer;
        final CommitterHandler<C> handler;

        Committing(CommittingSinkWriter<?, C> writer, CommitterHandler<C> handler) {
            this.writer = writer;
            this.handler = handler;
        }

        void prepare(long checkpointId) throws IOException, InterruptedException {
            Collection<C> committables = writer.prepareCommit();
            handler.add(checkpointId, committables);
        }
    }

    private final class InitContextImpl implements WriterInitContext, CommitterInitContext {
        @Override
        public int getSubtaskId() {
            return task.getTaskInfo().getIndexOfThisSubtask();
        }

        @Override
        public int getNumberOfParallelSubtasks() {
            return task.getTaskInfo().getNumberOfParallelSubtasks();
        }

        @Override
        public int getAttemptNumber() {
            return task.getTaskInfo().getAttemptNumber();
        }

        @Override
        public OptionalLong getRestoredCheckpointId() {
            Long id = task.getRestoredCheckpointId();
            return id == null ? OptionalLong.empty() : OptionalLong.of(id);
        }

        @Override
        public MetricGroup metricGroup() {
            return getRuntimeContext().getMetricGroup();
        }

        @Override
        public long currentProcessingTime() {
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public ProcessingTimeService getProcessingTimeService() {
            return SinkWriterOperator.this.getProcessingTimeService();
        }
    }

    private static final class ContextImpl implements SinkWriter.Context {
        private long timestamp;
        private boolean hasTimestamp;
        private long watermark = Long.MIN_VALUE;

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public Long timestamp() {
            return hasTimestamp ? timestamp : null;
        }
    }
}
