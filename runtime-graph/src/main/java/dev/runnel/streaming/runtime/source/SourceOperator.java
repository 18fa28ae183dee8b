package dev.runnel.streaming.runtime.source;

import dev.runnel.api.common.eventtime.TimestampAssigner;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.core.io.InputStatus;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.WatermarkEmitter;
import dev.runnel.streaming.api.operators.source.TimestampsAndWatermarksContext;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The head of a source task: owns the {@link SourceReader}, registers it with the source's
 * coordinator, stamps records with the watermark strategy's timestamps and emits its watermarks
 * (per event, every auto-watermark interval, and the final one when the input ends). In BATCH
 * execution only the final watermark is emitted.
 */
public final class SourceOperator<OUT, SplitT extends SourceSplit> extends AbstractStreamOperator<OUT>
        implements PollableSource {

    private static final long serialVersionUID = 1L;

    /** The name of the operator list state holding the reader's splits (Flink's name). */
    static final String READER_STATE = "SourceReaderState";

    private final Source<OUT, SplitT, ?> source;
    private final WatermarkStrategy<OUT> strategy;

    private transient SourceReader<OUT, SplitT> reader;
    private transient TimestampAssigner<OUT> assigner;
    private transient WatermarkGenerator<OUT> generator;
    private transient Emitter emitter;
    private transient WatermarkEmitter watermarks;
    private transient long interval;
    private transient boolean ended;
    private transient boolean suspended;
    /** The reader's splits at the last checkpoint: each the split serializer's version, then its bytes. */
    private transient ListState<byte[]> readerState;

    public SourceOperator(Source<OUT, SplitT, ?> source, WatermarkStrategy<OUT> strategy) {
        this.source = source;
        this.strategy = strategy;
        this.chainingStrategy = dev.runnel.streaming.api.operators.ChainingStrategy.HEAD;
    }

    public Source<OUT, SplitT, ?> getSource() {
        return source;
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        readerState = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(READER_STATE, BytePrimitiveArraySerializer.INSTANCE));
    }

    /** The reader's current splits, with their positions, become the operator's state. */
    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        SimpleVersionedSerializer<SplitT> serializer = source.getSplitSerializer();
        List<byte[]> splits = new java.util.ArrayList<>();
        for (SplitT split : reader.snapshotState(context.getCheckpointId())) {
            byte[] bytes = serializer.serialize(split);
            DataOutputSerializer out = new DataOutputSerializer(bytes.length + 4);
            out.writeInt(serializer.getVersion());
            out.write(bytes);
            splits.add(out.getCopyOfBuffer());
        }
        readerState.update(splits);
    }

    private List<SplitT> restoredSplits() throws Exception {
        SimpleVersionedSerializer<SplitT> serializer = source.getSplitSerializer();
        List<SplitT> splits = new java.util.ArrayList<>();
        for (byte[] bytes : readerState.get()) {
            int version = java.nio.ByteBuffer.wrap(bytes, 0, 4).getInt();
            splits.add(serializer.deserialize(version, java.util.Arrays.copyOfRange(bytes, 4, bytes.length)));
        }
        return splits;
    }

    @Override
    public void notifyCheckpointComplete(long checkpointId) throws Exception {
        super.notifyCheckpointComplete(checkpointId);
        reader.notifyCheckpointComplete(checkpointId);
    }

    @Override
    @SuppressWarnings("unchecked")
    public void open() throws Exception {
        super.open();
        TimestampsAndWatermarksContext context =
                TimestampsAndWatermarksContext.of(getRuntimeContext().getMetricGroup(), getProcessingTimeService());
        assigner = strategy.createTimestampAssigner(context);
        generator = strategy.createWatermarkGenerator(context);
        emitter = new Emitter();
        watermarks = new WatermarkEmitter(output, !task.isBatchExecution());
        SourceCoordinatorGateway coordinator = task.getSourceCoordinator(config.operatorId());
        int subtask = task.getTaskInfo().getIndexOfThisSubtask();
        int parallelism = task.getTaskInfo().getNumberOfParallelSubtasks();
        reader = source.createReader(new SourceReaderContext() {
            @Override
            public int getIndexOfSubtask() {
                return subtask;
            }

            @Override
            public int currentParallelism() {
                return parallelism;
            }

            @Override
            public void sendSplitRequest() {
                coordinator.requestSplit(subtask);
            }
        });
        // Register before start(): readers usually ask for a split in start(), and the coordinator
        // handles requests in order, so the registration must come first.
        coordinator.registerReader(subtask, new SourceReaderGateway<SplitT>() {
            @Override
            public void assignSplits(List<SplitT> splits) {
                task.execute(() -> addSplits(splits), "split assignment");
            }

            @Override
            public void signalNoMoreSplits() {
                task.execute(() -> reader.notifyNoMoreSplits(), "no more splits");
            }
        });
        List<SplitT> restored = restoredSplits();
        if (!restored.isEmpty()) {
            // The splits this reader held at the checkpoint; the restored enumerator does not hand them out again.
            reader.addSplits(restored);
        }
        reader.start();
        interval = task.getExecutionConfig().getAutoWatermarkInterval();
        if (interval > 0 && !task.isBatchExecution()) {
            schedulePeriodicWatermark(getProcessingTimeService().getCurrentProcessingTime() + interval);
        }
    }

    private void schedulePeriodicWatermark(long at) {
        getProcessingTimeService().registerTimer(at, time -> {
            if (!ended && !suspended) {
                generator.onPeriodicEmit(watermarks);
                schedulePeriodicWatermark(time + interval);
            }
        });
    }

    /**
     * Hands {@code splits} to the reader; names them only if it fails. Describing them up front cost every
     * assignment a string of every split, and a split that is a record bootstraps its toString through method
     * handles on first use (some 40 classes spun while each job started).
     */
    private void addSplits(List<SplitT> splits) {
        try {
            reader.addSplits(splits);
        } catch (RuntimeException e) {
            throw new IllegalStateException("The reader of source '" + getOperatorName() + "' failed to take splits "
                    + splits + ": " + e, e);
        }
    }

    /** Polls the reader once; on end of input emits the final watermark. */
    @Override
    public InputStatus emitNext() throws Exception {
        InputStatus status = reader.pollNext(emitter);
        if (status == InputStatus.END_OF_INPUT && !ended) {
            ended = true;
            generator.onPeriodicEmit(watermarks);
            watermarks.emitWatermark(Watermark.MAX_WATERMARK);
        }
        return status;
    }

    /** Completes when the reader may have data again. */
    @Override
    public CompletableFuture<Void> isAvailable() {
        return reader.isAvailable();
    }

    @Override
    public void setSuspended(boolean suspended) {
        this.suspended = suspended;
    }

    @Override
    public void emitMaxWatermark() {
        watermarks.emitWatermark(Watermark.MAX_WATERMARK);
    }

    @Override
    public void close() throws Exception {
        try {
            if (reader != null) {
                reader.close();
            }
        } finally {
            super.close();
        }
    }

    /** The reader's output: stamps each record and hands it on in one reused envelope. */
    private final class Emitter implements ReaderOutput<OUT> {
        private final StreamRecord<OUT> reuse = new StreamRecord<>(null);

        @Override
        public void collect(OUT record) {
            collect(record, TimestampAssigner.NO_TIMESTAMP);
        }

        @Override
        public void collect(OUT record, long timestamp) {
            long assigned = assigner.extractTimestamp(record, timestamp);
            output.collect(reuse.replaceFromTransport(record, assigned));
            generator.onEvent(record, assigned, watermarks);
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            watermarks.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            watermarks.markIdle();
        }

        @Override
        public void markActive() {
            watermarks.markActive();
        }
    }
}
