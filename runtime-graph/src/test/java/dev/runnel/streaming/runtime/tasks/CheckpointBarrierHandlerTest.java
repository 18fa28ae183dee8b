package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Alignment over the channels of one or two gates, in exactly-once and at-least-once mode. */
class CheckpointBarrierHandlerTest {

    private static final CheckpointOptions EXACTLY_ONCE = CheckpointOptions.checkpoint(true);
    private static final CheckpointOptions AT_LEAST_ONCE = CheckpointOptions.checkpoint(false);

    private final List<String> calls = new ArrayList<>();
    private final CheckpointBarrierHandler.Target target = new CheckpointBarrierHandler.Target() {
        @Override
        public void triggerCheckpointOnBarrier(CheckpointBarrier barrier, long alignmentNanos) {
            calls.add("trigger " + barrier.id());
        }

        @Override
        public void abortCheckpointOnBarrier(long checkpointId, String reason) {
            calls.add("abort " + checkpointId);
        }
    };

    @Test
    void exactlyOnceBlocksEachChannelUntilEveryChannelDeliveredTheBarrier() throws Exception {
        BlockingGate first = new BlockingGate(2);
        BlockingGate second = new BlockingGate(1);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {first, second}, target);

        handler.processBarrier(barrier(1, EXACTLY_ONCE), 0, 1);
        assertThat(first.isBlocked(1)).isTrue();
        assertThat(first.isBlocked(0)).isFalse();
        assertThat(handler.isAligning()).isTrue();
        handler.processBarrier(barrier(1, EXACTLY_ONCE), 1, 0);
        assertThat(second.isBlocked(0)).isTrue();
        assertThat(calls).isEmpty();

        handler.processBarrier(barrier(1, EXACTLY_ONCE), 0, 0);
        assertThat(calls).containsExactly("trigger 1");
        assertThat(first.isBlocked(0) || first.isBlocked(1) || second.isBlocked(0)).isFalse();
        assertThat(handler.isAligning()).isFalse();
    }

    @Test
    void atLeastOnceBlocksNothingAndTriggersOnTheLastBarrier() throws Exception {
        BlockingGate gate = new BlockingGate(3);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target);
        handler.processBarrier(barrier(4, AT_LEAST_ONCE), 0, 2);
        handler.processBarrier(barrier(4, AT_LEAST_ONCE), 0, 0);
        assertThat(gate.blockedCount()).isZero();
        assertThat(calls).isEmpty();
        handler.processBarrier(barrier(4, AT_LEAST_ONCE), 0, 1);
        assertThat(calls).containsExactly("trigger 4");
    }

    @Test
    void aNewerBarrierGivesUpTheOlderAlignment() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target);
        handler.processBarrier(barrier(1, EXACTLY_ONCE), 0, 0);
        handler.processBarrier(barrier(2, EXACTLY_ONCE), 0, 1);
        assertThat(calls).containsExactly("abort 1");
        assertThat(gate.isBlocked(1)).isTrue();
        assertThat(gate.isBlocked(0)).as("released with checkpoint 1").isFalse();
        // the late barrier of checkpoint 1 on channel 1's neighbour is ignored
        handler.processBarrier(barrier(1, EXACTLY_ONCE), 0, 0);
        assertThat(gate.isBlocked(0)).isFalse();
        handler.processBarrier(barrier(2, EXACTLY_ONCE), 0, 0);
        assertThat(calls).containsExactly("abort 1", "trigger 2");
    }

    @Test
    void anEndedChannelNeedsNoBarrier() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target);
        handler.processBarrier(barrier(3, EXACTLY_ONCE), 0, 0);
        assertThat(calls).isEmpty();
        handler.processEndOfPartition(0, 1);
        assertThat(calls).containsExactly("trigger 3");
        assertThat(gate.blockedCount()).isZero();
        // later checkpoints align over the remaining channel alone
        handler.processBarrier(barrier(4, EXACTLY_ONCE), 0, 0);
        assertThat(calls).containsExactly("trigger 3", "trigger 4");
    }

    @Test
    void aCancellationMarkerReleasesTheChannels() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target);
        handler.processBarrier(barrier(5, EXACTLY_ONCE), 0, 0);
        handler.processCancel(5);
        assertThat(gate.blockedCount()).isZero();
        assertThat(calls).containsExactly("abort 5");
        handler.processBarrier(barrier(5, EXACTLY_ONCE), 0, 1);
        assertThat(calls).containsExactly("abort 5");
        assertThat(gate.blockedCount()).isZero();
    }

    private static CheckpointBarrier barrier(long id, CheckpointOptions options) {
        return new CheckpointBarrier(id, 1000 + id, options);
    }

    /** A gate that only records which channels are blocked; the handler never polls. */
    private static final class BlockingGate implements InputGate {
        private final boolean[] blocked;

        BlockingGate(int channels) {
            blocked = new boolean[channels];
        }

        int blockedCount() {
            int n = 0;
            for (boolean b : blocked) {
                n += b ? 1 : 0;
            }
            return n;
        }

        @Override
        public int getNumberOfInputChannels() {
            return blocked.length;
        }

        @Override
        public RecordBatch pollNext() {
            return null;
        }

        @Override
        public boolean isAvailable() {
            return false;
        }

        @Override
        public java.util.concurrent.CompletableFuture<Void> getAvailableFuture() {
            return new java.util.concurrent.CompletableFuture<>();
        }

        @Override
        public int lastChannel() {
            return 0;
        }

        @Override
        public void recycle(RecordBatch batch) {}

        @Override
        public void blockChannel(int channel) {
            blocked[channel] = true;
        }

        @Override
        public boolean isBlocked(int channel) {
            return blocked[channel];
        }

        @Override
        public void resumeAllChannels() {
            java.util.Arrays.fill(blocked, false);
        }

        @Override
        public boolean isFinished() {
            return false;
        }

        @Override
        public void close() {}
    }
}
