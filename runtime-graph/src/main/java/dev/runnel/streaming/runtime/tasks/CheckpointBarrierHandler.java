package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.timers.ProcessingTimeService;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;

/**
 * Aligns checkpoint barriers over every input channel of a task (one gate, or two for a {@code connect}).
 *
 * <p>Exactly once: a channel that delivered the barrier of the checkpoint being aligned is blocked, so no
 * record after the barrier is processed before the snapshot; once every channel delivered it (or ended),
 * the task snapshots and every channel is let go. At least once: nothing is blocked; the task snapshots
 * when the last barrier arrives. A barrier of a newer checkpoint while aligning gives the older one up
 * (Flink's rule: only the newest counts); a cancellation marker, or a barrier of a checkpoint already
 * given up, lets the channels go.
 *
 * <p>Unaligned ({@link CheckpointOptions#isUnalignedCheckpoint()}): every channel delivers the barrier twice,
 * first as a priority event that overtook the queued data, then in order. The first copy of either kind
 * makes the task snapshot at once; from then on each channel's records go into a {@link ChannelStateCollector}
 * as well as to the operators, until that channel's in-order copy arrives (or it ends). Late priority copies
 * change nothing. Several unaligned checkpoints may collect at once (a newer one does not give an older one
 * up: both cuts are valid); an aligned one in progress is given up by a newer unaligned one, as by any newer
 * barrier.
 *
 * <pre>
 *   channel 0:  [N]! ─ snapshot ─ collect r r r ... [N] done
 *   channel 1:       collect r r [N]! r r r [N] done        (! = the overtaking copy)
 *   channel 2:       collect [N] done                     → all done: the channel state is complete
 * </pre>
 *
 * <p><b>Channels that must align.</b> A channel whose edge's partitioner does not support unaligned checkpoints
 * (forward, rescale, broadcast: {@code alignedOnlyEdges}) carries an unaligned checkpoint's barrier in order,
 * {@linkplain CheckpointOptions#isForcedAligned() forced aligned}, and never has channel state: as in Flink the
 * checkpoint is aligned on those channels and unaligned on the others. The snapshot waits until every such
 * channel delivered its barrier (each blocked as it does); the other channels are processed meanwhile (what
 * arrives before their own in-order barrier belongs to the snapshot anyway) and blocked at their in-order
 * barrier; at the snapshot every channel still without its barrier starts collecting, and all are let go.
 *
 * <pre>
 *   keyed:      r r [N]! r r r ─────────── snapshot ─ collect r r [N] done
 *   broadcast:  r r r r r r r r r r [N] blocked ┘       (forced aligned: never collects)
 * </pre>
 *
 * <p><b>Aligned checkpoint timeout</b> ({@link CheckpointOptions#isTimeoutable()}): the checkpoint starts
 * aligned; when the first barrier arrives the handler arms a timer for the checkpoint's start (the barrier's
 * timestamp) plus the timeout, as Flink does. If alignment is still going on when it fires (or the deadline has
 * already passed at the first barrier) the checkpoint becomes unaligned here: the task snapshots as soon as the
 * channels that must align are in, the channels not yet aligned collect their in-flight records until their
 * in-order barrier, and the barrier goes on downstream as an unaligned, overtaking one. A priority copy of the
 * barrier arriving while aligning (an upstream task switched first) switches it the same way.
 *
 * <p>Task thread only (the timer's callback runs as a mail, so on the task thread too). One class, past 400 lines,
 * because aligned, unaligned, mixed and timed-out alignment are one state machine over the same per-channel
 * flags; the in-flight bytes themselves live in {@link ChannelStateCollector}.
 */
final class CheckpointBarrierHandler {

    /** What the task does when alignment completes or is given up. */
    interface Target {
        void triggerCheckpointOnBarrier(CheckpointBarrier barrier, long alignmentNanos) throws Exception;

        void abortCheckpointOnBarrier(long checkpointId, String reason) throws Exception;

        /**
         * Takes unaligned checkpoint {@code barrier} now; {@code channelState} collects the in-flight records
         * and completes later (when every channel delivered its in-order barrier), or at once.
         */
        default void triggerUnalignedCheckpointOnBarrier(CheckpointBarrier barrier, ChannelStateCollector channelState)
                throws Exception {
            throw new UnsupportedOperationException("unaligned checkpoints are not supported here");
        }
    }

    /**
     * What a task's handler needs beyond its gates.
     *
     * @param descriptors the gates' descriptors (channels and serializers), needed for unaligned checkpoints
     * @param alignedOnlyEdges ids of the input edges whose partitioner does not support unaligned checkpoints
     * @param timers for the aligned checkpoint timeout; null: alignment never times out
     */
    record Setup(List<InputGateDeploymentDescriptor> descriptors, Set<String> alignedOnlyEdges,
            ProcessingTimeService timers) {
        Setup {
            alignedOnlyEdges = Set.copyOf(alignedOnlyEdges);
        }
    }

    /**
     * A batch an input took from {@code channel} of {@code gate} and has processed only up to, not including,
     * position {@code from}: it yielded between two records (backpressure, a mail).
     */
    record PartialBatch(int gate, int channel, RecordBatch batch, int from) {}

    /** An input as an unaligned snapshot sees it: what it holds in part, and whether it still replays. */
    interface PartialBatchSource {
        /** The batch processed in part, or null. Task thread only. */
        PartialBatch partialBatch();

        /**
         * Whether the input still replays restored channel state: the snapshot waits until it is done (then no
         * replayed record is left out of both the operators' state and the new channel state, and no live one
         * was read yet), as for a channel that must align. Tells {@link #inputReplayed()} when it is done.
         */
        default boolean replaying() {
            return false;
        }
    }

    private final InputGate[] gates;
    private final int[] firstChannel;
    private final boolean[] received;
    private final boolean[] ended;
    /** Channels of edges that do not support unaligned checkpoints: always aligned, never collected. */
    private final boolean[] alignedOnly;
    private final Target target;
    /** What the channels are, for collecting their in-flight records; null where unaligned is not supported. */
    private final List<InputGateDeploymentDescriptor> descriptors;
    /** Arms the alignment timeout; null where it is not supported (then alignment never times out). */
    private final ProcessingTimeService timers;
    /** The inputs, asked for what they hold in part at an unaligned snapshot; empty in tests without them. */
    private List<PartialBatchSource> partialBatches = List.of();
    /** Unaligned checkpoints whose channel state is still being collected, oldest first. */
    private final List<ChannelStateCollector> collecting = new ArrayList<>(2);
    /**
     * Whether some channel's records are being collected; read by {@link InputReader} once per batch, so
     * the path without unaligned checkpoints costs one field read per batch.
     */
    boolean collectingChannelState;
    /** The barrier being aligned, with {@linkplain CheckpointOptions#withUnalignedSupported() forcing undone}. */
    private CheckpointBarrier current;
    private long currentId = -1;
    private boolean aligning;
    /** The checkpoint being aligned is unaligned (from the start, by a priority barrier, or timed out). */
    private boolean unaligned;
    private long alignmentStart;
    private ProcessingTimeService.Cancellable alignmentTimer;

    CheckpointBarrierHandler(InputGate[] gates, Target target) {
        this(gates, target, (List<InputGateDeploymentDescriptor>) null);
    }

    /** @param descriptors the gates' descriptors (channels and serializers), needed for unaligned checkpoints */
    CheckpointBarrierHandler(InputGate[] gates, Target target, List<InputGateDeploymentDescriptor> descriptors) {
        this(gates, target, descriptors, Set.of(), null);
    }

    CheckpointBarrierHandler(InputGate[] gates, Target target, List<InputGateDeploymentDescriptor> descriptors,
            Set<String> alignedOnlyEdges, ProcessingTimeService timers) {
        this(gates, target, new Setup(descriptors, alignedOnlyEdges, timers));
    }

    CheckpointBarrierHandler(InputGate[] gates, Target target, Setup setup) {
        List<InputGateDeploymentDescriptor> descriptors = setup.descriptors();
        Set<String> alignedOnlyEdges = setup.alignedOnlyEdges();
        this.gates = gates;
        this.target = target;
        this.descriptors = descriptors;
        this.timers = setup.timers();
        this.firstChannel = new int[gates.length];
        int total = 0;
        for (int g = 0; g < gates.length; g++) {
            firstChannel[g] = total;
            total += gates[g].getNumberOfInputChannels();
        }
        this.received = new boolean[total];
        this.ended = new boolean[total];
        this.alignedOnly = new boolean[total];
        if (descriptors != null && !alignedOnlyEdges.isEmpty()) {
            int index = 0;
            for (InputGateDeploymentDescriptor gate : descriptors) {
                for (ChannelDescriptor channel : gate.channels()) {
                    alignedOnly[index++] = alignedOnlyEdges.contains(channel.id().edgeId());
                }
            }
        }
    }

    /**
     * The inputs that feed this handler. An unaligned snapshot can come between two records of a batch (the
     * alignment timer is a mail, and a two-input task may take a barrier on one input while the other yielded
     * mid-batch); the unprocessed rest of such a batch is in-flight data of the new checkpoint.
     */
    void setPartialBatchSources(List<? extends PartialBatchSource> sources) {
        this.partialBatches = List.copyOf(sources);
    }

    /** An input finished replaying its restored channel state, before reading any live record. */
    void inputReplayed() throws Exception {
        completeIfReady();
    }

    void processBarrier(CheckpointBarrier barrier, int gate, int channel) throws Exception {
        processBarrier(barrier, gate, channel, false);
    }

    /**
     * A barrier from {@code channel} of {@code gate}; {@code priority} when it is the overtaking copy of an
     * unaligned checkpoint's barrier (see {@link RecordBatch#isPriority()}).
     */
    void processBarrier(CheckpointBarrier barrier, int gate, int channel, boolean priority) throws Exception {
        long id = barrier.id();
        int index = firstChannel[gate] + channel;
        if (id > currentId) {
            if (aligning) {
                abort(currentId, "checkpoint " + id + " arrived before every channel delivered the barrier of "
                        + currentId);
            }
            start(barrier);
        } else if (id == currentId && aligning) {
            if ((priority || barrier.options().isUnalignedCheckpoint()) && !unaligned) {
                // An upstream task went unaligned first: so does this one.
                switchToUnaligned();
            }
        } else {
            // A checkpoint this task already took or gave up: its in-order copy ends a channel's collection.
            if (!priority) {
                ChannelStateCollector collector = collectorOf(id);
                if (collector != null) {
                    collector.channelDone(index);
                    removeFinished();
                }
            }
            return;
        }
        if (!priority && !received[index]) {
            received[index] = true;
            if (current.options().isExactlyOnceMode()) {
                gates[gate].blockChannel(channel);
            }
        }
        completeIfReady();
    }

    /**
     * The aligned checkpoint timeout of checkpoint {@code checkpointId} passed: if this task is still aligning it,
     * the checkpoint becomes unaligned here. A timer of a checkpoint no longer aligned changes nothing.
     */
    void alignmentTimedOut(long checkpointId) throws Exception {
        if (aligning && currentId == checkpointId && !unaligned) {
            switchToUnaligned();
            completeIfReady();
        }
    }

    private void start(CheckpointBarrier barrier) {
        CheckpointOptions options = barrier.options().withUnalignedSupported();
        current = options == barrier.options() ? barrier : new CheckpointBarrier(barrier.id(), barrier.timestamp(),
                options);
        currentId = barrier.id();
        aligning = true;
        unaligned = options.isUnalignedCheckpoint();
        java.util.Arrays.fill(received, false);
        alignmentStart = System.nanoTime();
        if (!unaligned && options.isTimeoutable()) {
            armAlignmentTimer(barrier.id(), barrier.timestamp() + options.getAlignedCheckpointTimeout());
        }
    }

    private void armAlignmentTimer(long id, long deadline) {
        if (timers == null) {
            return;
        }
        if (timers.getCurrentProcessingTime() >= deadline) {
            // The checkpoint started longer ago than the timeout (its barrier waited behind backpressure).
            unaligned = true;
            return;
        }
        alignmentTimer = timers.registerTimer(deadline, time -> alignmentTimedOut(id));
    }

    private void switchToUnaligned() {
        requireDescriptors(currentId);
        unaligned = true;
        cancelAlignmentTimer();
    }

    private void cancelAlignmentTimer() {
        if (alignmentTimer != null) {
            alignmentTimer.cancel();
            alignmentTimer = null;
        }
    }

    /**
     * Snapshots when the alignment allows it: aligned, once every channel delivered the barrier or ended;
     * unaligned, once every channel that must align did.
     */
    private void completeIfReady() throws Exception {
        if (!aligning) {
            return;
        }
        for (int i = 0; i < received.length; i++) {
            if (!received[i] && !ended[i] && (!unaligned || alignedOnly[i])) {
                return;
            }
        }
        for (PartialBatchSource source : partialBatches) {
            if (source.replaying()) {
                return;
            }
        }
        aligning = false;
        cancelAlignmentTimer();
        if (unaligned) {
            triggerUnaligned();
            return;
        }
        long alignment = System.nanoTime() - alignmentStart;
        try {
            target.triggerCheckpointOnBarrier(current, alignment);
        } finally {
            resumeAll();
        }
    }

    /** The unaligned snapshot: channels without their in-order barrier collect from now on. */
    private void triggerUnaligned() throws Exception {
        long id = currentId;
        CheckpointBarrier barrier = new CheckpointBarrier(id, current.timestamp(), current.options().toUnaligned());
        ChannelStateCollector collector = new ChannelStateCollector(id, requireDescriptors(id));
        for (int i = 0; i < received.length; i++) {
            if (received[i] || ended[i]) {
                collector.channelDone(i);
            }
        }
        for (PartialBatchSource source : partialBatches) {
            PartialBatch partial = source.partialBatch();
            if (partial != null) {
                // Older collectors took the whole batch when it was polled; the new one starts mid-batch.
                collector.collect(firstChannel[partial.gate()] + partial.channel(), partial.batch(), partial.from());
            }
        }
        if (!collector.isComplete()) {
            collecting.add(collector);
            collectingChannelState = true;
        }
        try {
            target.triggerUnalignedCheckpointOnBarrier(barrier, collector);
        } finally {
            resumeAll();
        }
        removeFinished(); // a declined snapshot aborted its collector
    }

    private List<InputGateDeploymentDescriptor> requireDescriptors(long id) {
        if (descriptors == null) {
            throw new IllegalStateException("unaligned checkpoint " + id + " reached a task that cannot collect the"
                    + " in-flight records of its channels");
        }
        return descriptors;
    }

    /**
     * Called by {@link InputReader} for every batch of records it takes from {@code channel} of {@code gate}
     * while {@link #collectingChannelState}: each collecting checkpoint whose barrier has not yet passed on
     * that channel keeps a copy.
     */
    void collect(int gate, int channel, RecordBatch batch) {
        int index = firstChannel[gate] + channel;
        for (int i = 0; i < collecting.size(); i++) {
            collecting.get(i).collect(index, batch);
        }
    }

    private ChannelStateCollector collectorOf(long id) {
        for (ChannelStateCollector collector : collecting) {
            if (collector.checkpointId() == id) {
                return collector;
            }
        }
        return null;
    }

    private void removeFinished() {
        collecting.removeIf(c -> c.isComplete() || c.isAborted());
        collectingChannelState = !collecting.isEmpty();
    }

    /** Checkpoint {@code checkpointId} was given up (here or by the coordinator): stop collecting for it. */
    void abortChannelState(long checkpointId) {
        ChannelStateCollector collector = collectorOf(checkpointId);
        if (collector != null) {
            collector.abort();
            removeFinished();
        }
    }

    /** The task ends: nothing more is collected, and no pending channel state completes. */
    void close() {
        cancelAlignmentTimer();
        for (ChannelStateCollector collector : collecting) {
            collector.abort();
        }
        collecting.clear();
        collectingChannelState = false;
    }

    void processCancel(long checkpointId) throws Exception {
        ChannelStateCollector collector = collectorOf(checkpointId);
        if (collector != null) {
            // Already snapshotted here; an upstream task gave the checkpoint up, so its channel state is moot.
            abortChannelState(checkpointId);
            target.abortCheckpointOnBarrier(checkpointId, "a task upstream gave it up");
            return;
        }
        if (checkpointId > currentId || (checkpointId == currentId && aligning)) {
            if (aligning) {
                resumeAll();
            }
            currentId = checkpointId;
            aligning = false;
            cancelAlignmentTimer();
            target.abortCheckpointOnBarrier(checkpointId, "a task upstream gave it up");
        }
    }

    /** Channel {@code channel} of {@code gate} ended: it will deliver no barrier, and need not. */
    void processEndOfPartition(int gate, int channel) throws Exception {
        int index = firstChannel[gate] + channel;
        ended[index] = true;
        if (!collecting.isEmpty()) {
            for (ChannelStateCollector collector : collecting) {
                collector.channelDone(index);
            }
            removeFinished();
        }
        completeIfReady();
    }

    /** Whether a checkpoint is being aligned; for tests and metrics. */
    boolean isAligning() {
        return aligning;
    }

    long currentCheckpointId() {
        return currentId;
    }

    private void abort(long id, String reason) throws Exception {
        aligning = false;
        cancelAlignmentTimer();
        resumeAll();
        target.abortCheckpointOnBarrier(id, reason);
    }

    private void resumeAll() {
        for (InputGate gate : gates) {
            gate.resumeAllChannels();
        }
    }
}
