package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import java.util.ArrayList;
import java.util.List;

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
 * <p>Unaligned ({@link dev.runnel.runtime.checkpoint.CheckpointOptions#isUnalignedCheckpoint()}): every channel
 * delivers the barrier twice, first as a priority event that overtook the queued data, then in order. The
 * first copy of either kind on any channel makes the task snapshot at once, blocking nothing; from then on
 * each channel's records go into a {@link ChannelStateCollector} as well as to the operators, until that
 * channel's in-order copy arrives (or it ends). Late priority copies change nothing. Several unaligned
 * checkpoints may collect at once (a newer one does not give an older one up: both cuts are valid); an
 * aligned one in progress is given up by a newer unaligned one, as by any newer barrier.
 *
 * <pre>
 *   channel 0:  [N]! ─ snapshot ─ collect r r r ... [N] done
 *   channel 1:       collect r r [N]! r r r [N] done        (! = the overtaking copy)
 *   channel 2:       collect [N] done                     → all done: the channel state is complete
 * </pre>
 *
 * <p>Task thread only.
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

    private final InputGate[] gates;
    private final int[] firstChannel;
    private final boolean[] received;
    private final boolean[] ended;
    private final Target target;
    /** What the channels are, for collecting their in-flight records; null where unaligned is not supported. */
    private final List<InputGateDeploymentDescriptor> descriptors;
    /** Unaligned checkpoints whose channel state is still being collected, oldest first. */
    private final List<ChannelStateCollector> collecting = new ArrayList<>(2);
    /**
     * Whether some channel's records are being collected; read by {@link InputReader} once per batch, so
     * the path without unaligned checkpoints costs one field read per batch.
     */
    boolean collectingChannelState;
    private CheckpointBarrier current;
    private long currentId = -1;
    private boolean aligning;
    private long alignmentStart;

    CheckpointBarrierHandler(InputGate[] gates, Target target) {
        this(gates, target, null);
    }

    /** @param descriptors the gates' descriptors (channels and serializers), needed for unaligned checkpoints */
    CheckpointBarrierHandler(InputGate[] gates, Target target, List<InputGateDeploymentDescriptor> descriptors) {
        this.gates = gates;
        this.target = target;
        this.descriptors = descriptors;
        this.firstChannel = new int[gates.length];
        int total = 0;
        for (int g = 0; g < gates.length; g++) {
            firstChannel[g] = total;
            total += gates[g].getNumberOfInputChannels();
        }
        this.received = new boolean[total];
        this.ended = new boolean[total];
    }

    void processBarrier(CheckpointBarrier barrier, int gate, int channel) throws Exception {
        processBarrier(barrier, gate, channel, false);
    }

    /**
     * A barrier from {@code channel} of {@code gate}; {@code priority} when it is the overtaking copy of an
     * unaligned checkpoint's barrier (see {@link RecordBatch#isPriority()}).
     */
    void processBarrier(CheckpointBarrier barrier, int gate, int channel, boolean priority) throws Exception {
        if (barrier.options().isUnalignedCheckpoint()) {
            processUnalignedBarrier(barrier, firstChannel[gate] + channel, priority);
            return;
        }
        long id = barrier.id();
        if (id < currentId || (id == currentId && !aligning)) {
            // A barrier of a checkpoint this task already took or gave up: let its channel flow.
            return;
        }
        if (id > currentId) {
            if (aligning) {
                abort(currentId, "checkpoint " + id + " arrived before every channel delivered the barrier of "
                        + currentId);
            }
            start(barrier);
        }
        int index = firstChannel[gate] + channel;
        if (!received[index]) {
            received[index] = true;
            if (barrier.options().isExactlyOnceMode()) {
                gates[gate].blockChannel(channel);
            }
        }
        completeIfAligned();
    }

    private void processUnalignedBarrier(CheckpointBarrier barrier, int index, boolean priority) throws Exception {
        long id = barrier.id();
        if (id > currentId) {
            if (aligning) {
                abort(currentId, "unaligned checkpoint " + id + " arrived before every channel delivered the barrier of "
                        + currentId);
            }
            currentId = id;
            current = barrier;
            ChannelStateCollector collector = new ChannelStateCollector(id, requireDescriptors(id));
            for (int i = 0; i < ended.length; i++) {
                if (ended[i]) {
                    collector.channelDone(i);
                }
            }
            if (!priority) {
                // The in-order copy came first: this channel has nothing in flight for the checkpoint.
                collector.channelDone(index);
            }
            if (!collector.isComplete()) {
                collecting.add(collector);
                collectingChannelState = true;
            }
            target.triggerUnalignedCheckpointOnBarrier(barrier, collector);
            removeFinished(); // a declined snapshot aborted its collector
            return;
        }
        if (!priority) {
            ChannelStateCollector collector = collectorOf(id);
            if (collector != null) {
                collector.channelDone(index);
                removeFinished();
            }
        }
        // A priority copy of a checkpoint already started here (its in-order copy may even have been first).
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
        completeIfAligned();
    }

    /** Whether a checkpoint is being aligned; for tests and metrics. */
    boolean isAligning() {
        return aligning;
    }

    long currentCheckpointId() {
        return currentId;
    }

    private void start(CheckpointBarrier barrier) {
        current = barrier;
        currentId = barrier.id();
        aligning = true;
        java.util.Arrays.fill(received, false);
        alignmentStart = System.nanoTime();
    }

    private void completeIfAligned() throws Exception {
        if (!aligning) {
            return;
        }
        int waitingFor = 0;
        for (int i = 0; i < received.length; i++) {
            if (!received[i] && !ended[i]) {
                waitingFor++;
            }
        }
        if (waitingFor > 0) {
            return;
        }
        aligning = false;
        long alignment = System.nanoTime() - alignmentStart;
        try {
            target.triggerCheckpointOnBarrier(current, alignment);
        } finally {
            resumeAll();
        }
    }

    private void abort(long id, String reason) throws Exception {
        aligning = false;
        resumeAll();
        target.abortCheckpointOnBarrier(id, reason);
    }

    private void resumeAll() {
        for (InputGate gate : gates) {
            gate.resumeAllChannels();
        }
    }
}
