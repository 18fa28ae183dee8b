package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.InputChannelStateHandle;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;

/**
 * The in-flight records of one unaligned checkpoint at one task, collected channel by channel while the
 * task goes on processing them.
 *
 * <pre>
 *   channel c:  ... r1 r2 [snapshot at the first barrier, any channel] r3 r4 |N| r5 ...
 *                                                                           └ in-order copy of barrier N
 *   operator state holds r1 r2;  channel state of c holds r3 r4;  r5 belongs to what follows N
 * </pre>
 *
 * From the task's snapshot on, every batch a channel delivers is serialized here (timestamp, then the value
 * with the edge's serializer) until the channel's in-order barrier arrives or the channel ends; that includes
 * what the priority barrier overtook and what a channel whose barrier is still on its way delivers meanwhile.
 * The records are serialized at once because a head operator may change a value it was given once object
 * reuse is on. When every channel is done the collector {@linkplain #isComplete() completes} and its
 * {@linkplain #onComplete completion action} runs; {@link #write} then turns the bytes into one
 * {@link InputChannelStateHandle} per non-empty channel, on the snapshot thread.
 *
 * <p>Channels are numbered across gates, as in {@link CheckpointBarrierHandler}. Collecting runs on the task
 * thread only; {@link #write} afterwards on another thread, which the completion hands the collector to.
 */
final class ChannelStateCollector {

    private final long checkpointId;
    private final int[] gateOf;
    private final ChannelDescriptor[] channels;
    private final TypeSerializer<Object>[] serializers;
    private final DataOutputSerializer[] bytes;
    private final long[] records;
    private final boolean[] done;
    private int open;
    private boolean aborted;
    private Runnable completion;
    private Runnable onAbort;

    @SuppressWarnings("unchecked")
    ChannelStateCollector(long checkpointId, List<InputGateDeploymentDescriptor> gates) {
        this.checkpointId = checkpointId;
        int total = 0;
        for (InputGateDeploymentDescriptor gate : gates) {
            total += gate.numberOfChannels();
        }
        this.gateOf = new int[total];
        this.channels = new ChannelDescriptor[total];
        this.serializers = new TypeSerializer[gates.size()];
        this.bytes = new DataOutputSerializer[total];
        this.records = new long[total];
        this.done = new boolean[total];
        int index = 0;
        for (int g = 0; g < gates.size(); g++) {
            serializers[g] = (TypeSerializer<Object>) gates.get(g).serializer();
            for (ChannelDescriptor channel : gates.get(g).channels()) {
                gateOf[index] = g;
                channels[index++] = channel;
            }
        }
        this.open = total;
    }

    long checkpointId() {
        return checkpointId;
    }

    /** Whether channel {@code index} still collects (its in-order barrier has not arrived, it has not ended). */
    boolean isCollecting(int index) {
        return !done[index] && !aborted;
    }

    /** Appends every record of {@code batch}, which channel {@code index} delivered, if it still collects. */
    void collect(int index, RecordBatch batch) {
        collect(index, batch, 0);
    }

    /**
     * Appends the records of {@code batch} from position {@code from} on, if channel {@code index} still collects:
     * the part of a batch the task had not processed yet when it took the snapshot.
     */
    void collect(int index, RecordBatch batch, int from) {
        if (done[index] || aborted) {
            return;
        }
        TypeSerializer<Object> serializer = serializers[gateOf[index]];
        if (serializer == null) {
            throw new IllegalStateException("channel " + channels[index].id() + " has no serializer, so its in-flight"
                    + " records cannot be part of unaligned checkpoint " + checkpointId);
        }
        DataOutputSerializer out = bytes[index];
        if (out == null) {
            out = new DataOutputSerializer(4096);
            bytes[index] = out;
        }
        try {
            for (int i = from; i < batch.size(); i++) {
                out.writeLong(batch.timestamp(i));
                serializer.serialize(batch.value(i), out);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("serializing an in-flight record of channel " + channels[index].id()
                    + " for checkpoint " + checkpointId + " failed", e);
        }
        records[index] += Math.max(0, batch.size() - from);
    }

    /** Channel {@code index} delivered its in-order barrier, or ended: it collects nothing more. */
    void channelDone(int index) {
        if (done[index]) {
            return;
        }
        done[index] = true;
        open--;
        if (open == 0 && !aborted && completion != null) {
            Runnable action = completion;
            completion = null;
            onAbort = null;
            action.run();
        }
    }

    boolean isComplete() {
        return open == 0;
    }

    /**
     * Runs {@code action} (on the task thread) once every channel is done, at once if they already are, or
     * {@code abortAction} instead if the checkpoint is given up first. The task's snapshot registers them after
     * the operators' synchronous snapshot.
     */
    void onComplete(Runnable action, Runnable abortAction) {
        if (aborted) {
            abortAction.run();
            return;
        }
        if (open == 0) {
            action.run();
        } else {
            completion = action;
            onAbort = abortAction;
        }
    }

    /**
     * The checkpoint was given up (or the task ends): drop what was collected; the completion never runs, the
     * abort action does if one waits. Idempotent.
     */
    void abort() {
        if (aborted) {
            return;
        }
        aborted = true;
        Runnable action = completion == null ? null : onAbort;
        completion = null;
        onAbort = null;
        java.util.Arrays.fill(bytes, null);
        if (action != null) {
            action.run();
        }
    }

    boolean isAborted() {
        return aborted;
    }

    /** Records collected so far over all channels (for metrics and tests). */
    long recordCount() {
        long sum = 0;
        for (long n : records) {
            sum += n;
        }
        return sum;
    }

    /**
     * Writes one blob per channel that collected records, in channel order; channels without records get no
     * handle. Off the task thread, after completion.
     */
    List<InputChannelStateHandle> write(CheckpointStreamFactory streams) throws IOException {
        List<InputChannelStateHandle> handles = new ArrayList<>();
        for (int i = 0; i < channels.length; i++) {
            if (records[i] == 0) {
                continue;
            }
            DataOutputSerializer data = bytes[i];
            try (CheckpointStateOutputStream out = streams.createCheckpointStateOutputStream(
                    CheckpointedStateScope.EXCLUSIVE)) {
                out.write(data.getSharedBuffer(), 0, data.length());
                handles.add(new InputChannelStateHandle(gateOf[i], channels[i].id().edgeId(),
                        channels[i].id().producerSubtask(), records[i], out.closeAndGetHandle()));
            }
            bytes[i] = null;
        }
        return handles;
    }
}
