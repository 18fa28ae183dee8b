package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Alignment over the channels of one or two gates, in exactly-once and at-least-once mode. */
class CheckpointBarrierHandlerTest {

    /** Where the channel-state test writes its checkpoint; removed after each test. */
    @TempDir
    java.nio.file.Path channelStateDir;

    private static final CheckpointOptions EXACTLY_ONCE = CheckpointOptions.checkpoint(true);
    private static final CheckpointOptions AT_LEAST_ONCE = CheckpointOptions.checkpoint(false);

    private static final CheckpointOptions UNALIGNED = CheckpointOptions.checkpoint(true, true);

    private static final CheckpointOptions TIMEOUTABLE = CheckpointOptions.checkpoint(true, true, 100);

    private final List<String> calls = new ArrayList<>();
    private final List<ChannelStateCollector> collectors = new ArrayList<>();
    private final List<CheckpointBarrier> triggered = new ArrayList<>();
    private final ManualTimers timers = new ManualTimers();
    private final CheckpointBarrierHandler.Target target = new CheckpointBarrierHandler.Target() {
        @Override
        public void triggerUnalignedCheckpointOnBarrier(CheckpointBarrier barrier, ChannelStateCollector channelState) {
            calls.add("unaligned " + barrier.id());
            triggered.add(barrier);
            collectors.add(channelState);
            channelState.onComplete(() -> calls.add("channel state " + barrier.id() + " complete"),
                    () -> calls.add("channel state " + barrier.id() + " aborted"));
        }

        @Override
        public void triggerCheckpointOnBarrier(CheckpointBarrier barrier, long alignmentNanos) {
            calls.add("trigger " + barrier.id());
            triggered.add(barrier);
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

    @Test
    void unalignedSnapshotsAtTheFirstBarrierAndCollectsEachChannelUntilItsInOrderBarrier() throws Exception {
        BlockingGate gate = new BlockingGate(3);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 3)));
        assertThat(handler.collectingChannelState).isFalse();

        handler.processBarrier(barrier(7, UNALIGNED), 0, 1, true);
        assertThat(calls).as("snapshot at once, nothing blocked").containsExactly("unaligned 7");
        assertThat(gate.blockedCount()).isZero();
        assertThat(handler.collectingChannelState).isTrue();
        ChannelStateCollector state = collectors.get(0);

        handler.collect(0, 1, batch(1, 2));          // overtaken by the barrier on channel 1
        handler.collect(0, 0, batch(10));            // channel 0's barrier is still on its way
        handler.processBarrier(barrier(7, UNALIGNED), 0, 0, false); // its in-order copy came first
        handler.collect(0, 0, batch(11));            // after the barrier: not collected
        handler.processBarrier(barrier(7, UNALIGNED), 0, 0, true);  // the late overtaking copy changes nothing
        handler.collect(0, 1, batch(3));
        handler.processBarrier(barrier(7, UNALIGNED), 0, 1, false);
        assertThat(calls).containsExactly("unaligned 7");
        handler.collect(0, 2, batch(20, 21, 22));
        handler.processEndOfPartition(0, 2);         // an ended channel is done

        assertThat(calls).containsExactly("unaligned 7", "channel state 7 complete");
        assertThat(handler.collectingChannelState).isFalse();
        assertThat(state.recordCount()).isEqualTo(2 + 1 + 1 + 3);
        var streams = new dev.runnel.runtime.state.storage.FileSystemCheckpointStorage(
                channelStateDir.toString(), null, 1 << 20)
                .createCheckpointStorage("job").initializeLocationForCheckpoint(7);
        var handles = state.write(streams);
        assertThat(handles).extracting(h -> h.gateIndex() + ":" + h.producerSubtask() + "=" + h.records())
                .containsExactly("0:0=1", "0:1=3", "0:2=3");

        ChannelStateReplay replay = new ChannelStateReplay(handles,
                dev.runnel.api.common.typeutils.base.LongSerializer.INSTANCE, new dev.runnel.metrics.SimpleCounter(),
                "test");
        List<Object> replayed = new ArrayList<>();
        RecordBatch next;
        while ((next = replay.next()) != null) {
            for (int i = 0; i < next.size(); i++) {
                replayed.add(next.value(i) + "@" + next.timestamp(i));
            }
        }
        assertThat(replayed).containsExactly("10@10", "1@1", "2@2", "3@3", "20@20", "21@21", "22@22");
    }

    @Test
    void anUnalignedCheckpointWhoseInOrderBarriersAllCameFirstHasNoChannelState() throws Exception {
        BlockingGate gate = new BlockingGate(1);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 1)));
        handler.processBarrier(barrier(2, UNALIGNED), 0, 0, false);
        assertThat(calls).containsExactly("unaligned 2", "channel state 2 complete");
        assertThat(handler.collectingChannelState).isFalse();
        handler.processBarrier(barrier(2, UNALIGNED), 0, 0, true);
        assertThat(calls).hasSize(2);
    }

    @Test
    void aCancellationOrAnAbortDropsTheChannelState() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)));
        handler.processBarrier(barrier(4, UNALIGNED), 0, 0, true);
        handler.collect(0, 1, batch(5));
        handler.processCancel(4);
        assertThat(calls).containsExactly("unaligned 4", "channel state 4 aborted", "abort 4");
        assertThat(handler.collectingChannelState).isFalse();

        handler.processBarrier(barrier(5, UNALIGNED), 0, 1, true);
        handler.abortChannelState(5);
        assertThat(calls).endsWith("unaligned 5", "channel state 5 aborted");
        handler.processBarrier(barrier(6, UNALIGNED), 0, 1, true);
        handler.close();
        assertThat(calls).endsWith("unaligned 6", "channel state 6 aborted");
    }

    @Test
    void aNewerUnalignedBarrierGivesUpAnAlignedOne() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)));
        handler.processBarrier(barrier(1, EXACTLY_ONCE), 0, 0);
        assertThat(gate.isBlocked(0)).isTrue();
        handler.processBarrier(barrier(2, UNALIGNED), 0, 1, true);
        assertThat(calls).containsExactly("abort 1", "unaligned 2");
        assertThat(gate.blockedCount()).isZero();
    }

    @Test
    void channelsOfAnEdgeWithoutUnalignedSupportAlignWhileTheOthersStayUnaligned() throws Exception {
        // Channels 0 and 1 come over a keyBy edge "k", channel 2 over a broadcast edge "b".
        BlockingGate gate = new BlockingGate(3);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor(List.of("k", "k", "b"))), java.util.Set.of("b"), timers);
        CheckpointOptions forced = UNALIGNED.withUnalignedUnsupported();

        handler.processBarrier(barrier(3, UNALIGNED), 0, 0, true);
        assertThat(calls).as("the broadcast channel has not aligned yet").isEmpty();
        assertThat(handler.collectingChannelState).isFalse();
        handler.processBarrier(barrier(3, UNALIGNED), 0, 0, false);
        assertThat(gate.isBlocked(0)).as("after its in-order barrier a channel waits").isTrue();
        assertThat(gate.isBlocked(1) || gate.isBlocked(2)).isFalse();

        handler.processBarrier(barrier(3, forced), 0, 2, false);
        assertThat(calls).containsExactly("unaligned 3");
        assertThat(triggered.get(0).options().isUnalignedCheckpoint()).as("forwarded unaligned").isTrue();
        assertThat(gate.blockedCount()).isZero();
        ChannelStateCollector state = collectors.get(0);
        assertThat(state.isCollecting(0)).isFalse();
        assertThat(state.isCollecting(1)).as("the keyed channel without its barrier").isTrue();
        assertThat(state.isCollecting(2)).as("the broadcast channel never collects").isFalse();
        handler.collect(0, 1, batch(4, 5));
        handler.processBarrier(barrier(3, UNALIGNED), 0, 1, true);
        handler.processBarrier(barrier(3, UNALIGNED), 0, 1, false);
        assertThat(calls).containsExactly("unaligned 3", "channel state 3 complete");
        assertThat(state.recordCount()).isEqualTo(2);
    }

    @Test
    void onlyForcedAlignedChannelsMakeAnAlignedSnapshotThatForwardsUnaligned() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("f", 2)), java.util.Set.of("f"), timers);
        CheckpointOptions forced = UNALIGNED.withUnalignedUnsupported();
        handler.processBarrier(barrier(4, forced), 0, 1, false);
        assertThat(gate.isBlocked(1)).isTrue();
        assertThat(calls).isEmpty();
        handler.processBarrier(barrier(4, forced), 0, 0, false);
        assertThat(calls).containsExactly("unaligned 4", "channel state 4 complete");
        assertThat(triggered.get(0).options()).isEqualTo(UNALIGNED);
        assertThat(gate.blockedCount()).isZero();
    }

    @Test
    void anAlignmentThatOutlastsTheTimeoutTurnsUnaligned() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)), java.util.Set.of(), timers);
        timers.now = 1000;
        handler.processBarrier(barrier(5, TIMEOUTABLE), 0, 0, false);
        assertThat(gate.isBlocked(0)).as("the checkpoint starts aligned").isTrue();
        assertThat(timers.deadlines).as("checkpoint start (its timestamp) + the timeout")
                .containsExactly(1000 + 5 + 100L);
        handler.collect(0, 1, batch(1));
        assertThat(calls).isEmpty();

        timers.fire();
        assertThat(calls).containsExactly("unaligned 5");
        assertThat(triggered.get(0).options().isUnalignedCheckpoint()).isTrue();
        assertThat(gate.blockedCount()).isZero();
        handler.collect(0, 1, batch(2, 3));
        handler.collect(0, 0, batch(9));             // after channel 0's barrier: not in-flight data
        handler.processBarrier(barrier(5, TIMEOUTABLE), 0, 1, false);
        assertThat(calls).containsExactly("unaligned 5", "channel state 5 complete");
        assertThat(collectors.get(0).recordCount()).isEqualTo(2);
    }

    @Test
    void anAlignmentWithinTheTimeoutStaysAlignedAndCancelsTheTimer() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)), java.util.Set.of(), timers);
        timers.now = 1000;
        handler.processBarrier(barrier(6, TIMEOUTABLE), 0, 1, false);
        handler.processBarrier(barrier(6, TIMEOUTABLE), 0, 0, false);
        assertThat(calls).containsExactly("trigger 6");
        assertThat(triggered.get(0).options()).as("forwarded aligned, with its timeout").isEqualTo(TIMEOUTABLE);
        assertThat(timers.cancelled).isEqualTo(1);
        timers.fire();                               // a late timer changes nothing
        assertThat(calls).containsExactly("trigger 6");
    }

    @Test
    void aCheckpointOlderThanTheTimeoutAtItsFirstBarrierIsUnalignedAtOnce() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)), java.util.Set.of(), timers);
        timers.now = 1000 + 7 + 100;
        handler.processBarrier(barrier(7, TIMEOUTABLE), 0, 0, false);
        assertThat(calls).containsExactly("unaligned 7");
        assertThat(timers.deadlines).isEmpty();
        assertThat(collectors.get(0).isCollecting(1)).isTrue();
    }

    @Test
    void anUpstreamSwitchToUnalignedSwitchesAnAligningTask() throws Exception {
        BlockingGate gate = new BlockingGate(2);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate}, target,
                List.of(descriptor("e", 2)), java.util.Set.of(), timers);
        timers.now = 1000;
        handler.processBarrier(barrier(8, TIMEOUTABLE), 0, 0, false);
        handler.processBarrier(barrier(8, UNALIGNED), 0, 1, true);
        assertThat(calls).containsExactly("unaligned 8");
        assertThat(timers.cancelled).isEqualTo(1);
        assertThat(collectors.get(0).isCollecting(1)).isTrue();
        assertThat(collectors.get(0).isCollecting(0)).isFalse();
    }

    @Test
    void theUnprocessedRestOfABatchAnInputHoldsAtTheSnapshotIsInFlightData() throws Exception {
        // Two gates of one channel each; the first yielded after two of the four records of a batch.
        BlockingGate first = new BlockingGate(1);
        BlockingGate second = new BlockingGate(1);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {first, second}, target,
                List.of(descriptor("a", 1), descriptor("b", 1)), java.util.Set.of(), timers);
        RecordBatch partial = batch(1, 2, 3, 4);
        handler.setPartialBatchSources(List.of(() -> new CheckpointBarrierHandler.PartialBatch(0, 0, partial, 2),
                () -> null));
        handler.processBarrier(barrier(9, UNALIGNED), 1, 0, true);
        assertThat(calls).containsExactly("unaligned 9");
        handler.processBarrier(barrier(9, UNALIGNED), 1, 0, false);
        handler.processBarrier(barrier(9, UNALIGNED), 0, 0, false);
        assertThat(collectors.get(0).recordCount()).as("records 3 and 4").isEqualTo(2);
    }

    @Test
    void anUnalignedSnapshotWaitsUntilNoInputReplaysRestoredChannelState() throws Exception {
        BlockingGate first = new BlockingGate(1);
        BlockingGate second = new BlockingGate(1);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {first, second}, target,
                List.of(descriptor("a", 1), descriptor("b", 1)), java.util.Set.of(), timers);
        boolean[] replaying = {true};
        handler.setPartialBatchSources(List.of(new CheckpointBarrierHandler.PartialBatchSource() {
            @Override
            public CheckpointBarrierHandler.PartialBatch partialBatch() {
                return null;
            }

            @Override
            public boolean replaying() {
                return replaying[0];
            }
        }));
        handler.processBarrier(barrier(10, UNALIGNED), 1, 0, true);
        assertThat(calls).as("input 1 still replays what an earlier checkpoint persisted").isEmpty();
        handler.processBarrier(barrier(10, UNALIGNED), 1, 0, false);
        assertThat(second.isBlocked(0)).isTrue();
        replaying[0] = false;
        handler.inputReplayed();
        assertThat(calls).containsExactly("unaligned 10");
        assertThat(collectors.get(0).isCollecting(0)).as("input 1 collects from its first live record").isTrue();
        assertThat(second.isBlocked(0)).isFalse();
    }

    private static dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor descriptor(String edge, int channels) {
        List<String> edges = new ArrayList<>();
        for (int i = 0; i < channels; i++) {
            edges.add(edge);
        }
        return descriptor(edges);
    }

    /** One channel per entry, over the edge it names, from producer subtask = its position. */
    private static dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor descriptor(List<String> edges) {
        List<dev.runnel.runtime.shuffle.ChannelDescriptor> list = new ArrayList<>();
        for (int i = 0; i < edges.size(); i++) {
            list.add(new dev.runnel.runtime.shuffle.ChannelDescriptor(
                    new dev.runnel.runtime.shuffle.ChannelId(edges.get(i), i, 0),
                    dev.runnel.runtime.shuffle.TaskLocation.embedded(0), dev.runnel.runtime.shuffle.TaskLocation.embedded(0)));
        }
        return new dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor(1,
                dev.runnel.api.common.typeutils.base.LongSerializer.INSTANCE, list);
    }

    /** Timers the test fires by hand, at a clock it sets. */
    private static final class ManualTimers implements dev.runnel.runtime.timers.ProcessingTimeService {
        long now;
        int cancelled;
        final List<Long> deadlines = new ArrayList<>();
        private final List<ProcessingTimeCallback> callbacks = new ArrayList<>();

        @Override
        public long getCurrentProcessingTime() {
            return now;
        }

        @Override
        public Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback) {
            deadlines.add(timestamp);
            callbacks.add(callback);
            return () -> cancelled++;
        }

        /** Runs every registered callback, cancelled or not (as a mail already queued would). */
        void fire() throws Exception {
            for (int i = 0; i < callbacks.size(); i++) {
                callbacks.get(i).onProcessingTime(deadlines.get(i));
            }
        }
    }

    private static RecordBatch batch(long... values) {
        RecordBatch batch = new RecordBatch(8);
        for (long v : values) {
            batch.add(v, v);
        }
        return batch;
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
