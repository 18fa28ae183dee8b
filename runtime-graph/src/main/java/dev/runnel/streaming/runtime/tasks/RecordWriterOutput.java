package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import dev.runnel.runtime.partitioner.KeyExtractionException;
import dev.runnel.runtime.partitioner.KeyGroupStreamPartitioner;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.streaming.api.operators.Output;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/**
 * Sends records over a job edge: the edge's partitioner picks the channel, the writer batches (and copies
 * or serializes, as its kind requires). When the writer reports that a channel reached its limit, the
 * task is told to stop pulling input after the current record ({@link TaskSignals#outputBlocked}).
 */
final class RecordWriterOutput<T> implements Output<T> {

    private final ResultPartitionWriter writer;
    private final StreamPartitioner<T> partitioner;
    /** The partitioner of a keyBy edge (else null): its key hash and key group travel with the record. */
    private final KeyGroupStreamPartitioner<T, ?> byKey;
    private final boolean broadcast;
    private final boolean supportsUnalignedCheckpoints;
    private final OutputTag<?> outputTag;
    private final TaskSignals signals;
    private final boolean flushAlways;
    private final String edgeDescription;

    RecordWriterOutput(ResultPartitionWriter writer, StreamPartitioner<T> partitioner, OutputTag<?> outputTag,
            TaskSignals signals, boolean flushAlways, String edgeDescription) {
        this.writer = writer;
        this.partitioner = partitioner;
        this.byKey = partitioner instanceof KeyGroupStreamPartitioner<T, ?> keyed ? keyed : null;
        this.broadcast = partitioner.isBroadcast();
        this.supportsUnalignedCheckpoints = partitioner.isSupportsUnalignedCheckpoint();
        this.outputTag = outputTag;
        this.signals = signals;
        this.flushAlways = flushAlways;
        this.edgeDescription = edgeDescription;
        partitioner.setup(writer.getNumberOfSubpartitions());
    }

    @Override
    public void collect(StreamRecord<T> record) {
        if (outputTag == null) {
            emit(record.getValue(), record.transportTimestamp());
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> void collect(OutputTag<X> tag, StreamRecord<X> record) {
        if (outputTag != null && outputTag.equals(tag)) {
            emit((T) record.getValue(), record.transportTimestamp());
        }
    }

    private void emit(T value, long timestamp) {
        try {
            boolean available;
            if (broadcast) {
                available = writer.broadcastRecord(value, timestamp);
            } else if (byKey != null) {
                int keyHash = keyHash(value);
                int keyGroup = byKey.keyGroupOfHash(keyHash);
                available = writer.emitKeyedRecord(value, timestamp, keyHash, keyGroup, byKey.getMaxParallelism(),
                        byKey.channelOfKeyGroup(keyGroup));
            } else {
                available = writer.emitRecord(value, timestamp, channel(value));
            }
            signals.recordsOut++;
            // Without a branch (javac compiles `!available` as one, `^ true` as an xor): a branch never taken
            // while the JIT profiles, before the first backpressure, is compiled as a trap, and taking it
            // later sends the whole inlined source chain back to the interpreter to be compiled again.
            signals.outputBlocked |= available ^ true;
            if (flushAlways) {
                writer.flushAll();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TaskCancelledException("interrupted while sending on edge " + edgeDescription);
        }
    }

    private int keyHash(T value) {
        try {
            return byKey.keyHash(value);
        } catch (KeyExtractionException e) {
            throw keyFailure(e, value);
        }
    }

    private int channel(T value) {
        try {
            return partitioner.selectChannel(value);
        } catch (KeyExtractionException e) {
            throw keyFailure(e, value);
        }
    }

    private OperatorException keyFailure(KeyExtractionException e, T value) {
        return new OperatorException(e.getMessage() + " on edge " + edgeDescription + ", record "
                + OperatorException.describe(value), e.getCause());
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        broadcastEvent(new WatermarkEvent(watermark.getTimestamp()));
    }

    @Override
    public void emitWatermarkStatus(boolean idle) {
        broadcastEvent(WatermarkStatusEvent.of(idle));
    }

    private void broadcastEvent(dev.runnel.runtime.io.ChannelEvent event) {
        try {
            writer.broadcastEvent(event);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new TaskCancelledException("interrupted while sending on edge " + edgeDescription);
        }
    }

    /**
     * Sends a control event (a checkpoint barrier) on every channel of the edge, after the records; a priority
     * event (an unaligned barrier) also ahead of them. On an edge whose partitioner does not support unaligned
     * checkpoints (forward, rescale, broadcast) an unaligned or timeoutable barrier goes forced aligned, in order
     * only, as in Flink: its receiver aligns that channel, so the edge never has channel state.
     */
    void broadcastControlEvent(dev.runnel.runtime.io.ChannelEvent event) throws InterruptedException {
        if (!supportsUnalignedCheckpoints && event instanceof CheckpointBarrier barrier) {
            CheckpointOptions options = barrier.options().withUnalignedUnsupported();
            if (options != barrier.options()) {
                event = new CheckpointBarrier(barrier.id(), barrier.timestamp(), options);
            }
        }
        writer.broadcastEvent(event);
    }

    /**
     * Sends the overtaking copy of unaligned barrier {@code barrier} ahead of the queued data on every channel,
     * where the edge supports unaligned checkpoints: the in-order copy, sent earlier as an aligned barrier
     * whose timeout has now passed, may still wait in the queues. Nothing on other edges, whose receivers align.
     */
    void overtakeWithBarrier(CheckpointBarrier barrier) throws InterruptedException {
        if (supportsUnalignedCheckpoints) {
            writer.broadcastPriorityEvent(barrier);
        }
    }

    /** Whether the writer can take more input now. */
    boolean isAvailable() {
        return writer.isAvailable();
    }

    /** Hands over partially filled batches (buffer timeout). */
    void flush() throws InterruptedException {
        writer.flushAll();
    }

    /** Ends the edge: flush and end-of-partition on every channel. */
    void finish() throws InterruptedException {
        writer.finish();
    }

    @Override
    public void close() {
        writer.close();
    }
}
