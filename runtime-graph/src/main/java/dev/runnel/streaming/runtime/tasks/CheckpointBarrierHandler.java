package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;

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
 * <p>Task thread only.
 */
final class CheckpointBarrierHandler {

    /** What the task does when alignment completes or is given up. */
    interface Target {
        void triggerCheckpointOnBarrier(CheckpointBarrier barrier, long alignmentNanos) throws Exception;

        void abortCheckpointOnBarrier(long checkpointId, String reason) throws Exception;
    }

    private final InputGate[] gates;
    private final int[] firstChannel;
    private final boolean[] received;
    private final boolean[] ended;
    private final Target target;
    private CheckpointBarrier current;
    private long currentId = -1;
    private boolean aligning;
    private long alignmentStart;

    CheckpointBarrierHandler(InputGate[] gates, Target target) {
        this.gates = gates;
        this.target = target;
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

    void processCancel(long checkpointId) throws Exception {
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
