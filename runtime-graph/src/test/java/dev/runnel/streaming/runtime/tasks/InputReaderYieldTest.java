package dev.runnel.streaming.runtime.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.streaming.api.operators.Input;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The input reader processes a batch in runs (of one announced group, or of a fixed length for targets that take
 * no announcements) and must still stop right after any record that asks the task to yield, wherever that record
 * falls in a run, and resume with the next record without losing, repeating or re-announcing any.
 */
@Timeout(30)
class InputReaderYieldTest {

    @Test
    void stopsAfterTheRecordThatBlockedTheOutputWhereverItFallsInARun() throws Exception {
        // Records 63 and 64 end and start a run of a target without announcements; 100 is inside one.
        check(0, Set.of(0, 63, 64, 100, 127, 128, 198));
    }

    @Test
    void stopsInsideAnAnnouncedGroupAndResumesItWithoutAnnouncingItAgain() throws Exception {
        check(16, Set.of(5, 15, 16, 40, 47, 48, 198));
    }

    @Test
    void cancellationStopsBetweenRecordsToo() throws Exception {
        TaskSignals signals = new TaskSignals();
        RecordingTarget target = new RecordingTarget(signals, 0, Set.of());
        target.cancelAt = 70;
        ScriptedInputGate gate = new ScriptedInputGate(1).add(batchOf(200), 0);
        InputReader<Integer> reader = reader(gate, target, signals);

        assertEquals(InputStatus.MORE_AVAILABLE, reader.process());
        assertEquals(71, target.values.size(), "stops right after the record during which the task was cancelled");
        assertEquals(71, signals.recordsIn);
        assertEquals(0, gate.recycled().size(), "the batch is not done yet");
    }

    private static void check(int groupSize, Set<Integer> blockingRecords) throws Exception {
        TaskSignals signals = new TaskSignals();
        RecordingTarget target = new RecordingTarget(signals, groupSize, blockingRecords);
        RecordBatch batch = batchOf(200);
        ScriptedInputGate gate = new ScriptedInputGate(1).add(batch, 0);
        InputReader<Integer> reader = reader(gate, target, signals);

        List<Integer> stops = new ArrayList<>();
        for (int calls = 0; calls < 50 && gate.recycled().isEmpty(); calls++) {
            assertEquals(InputStatus.MORE_AVAILABLE, reader.process());
            stops.add(target.values.size());
            assertEquals(target.values.size(), signals.recordsIn, "records counted as they are handed over");
            signals.outputBlocked = false; // what the task does once its outputs have room again
        }

        List<Integer> expectedStops = new ArrayList<>();
        blockingRecords.stream().sorted().filter(r -> r < 199).forEach(r -> expectedStops.add(r + 1));
        expectedStops.add(200); // the block at the batch's last record needs no stop: the batch is done
        assertEquals(expectedStops, stops, "one stop right after each record that blocked the output");
        List<Integer> all = new ArrayList<>();
        for (int i = 0; i < 200; i++) {
            all.add(i);
        }
        assertEquals(all, target.values, "every record once, in order");
        assertEquals(1, gate.recycled().size());
        assertSame(batch, gate.recycled().get(0));
        if (groupSize > 0) {
            List<Integer> starts = new ArrayList<>();
            for (int i = 0; i < 200; i += groupSize) {
                starts.add(i);
            }
            assertEquals(starts, target.announcedFrom, "each group announced once, where it starts");
            for (int i = 0; i < target.announcedFrom.size(); i++) {
                assertEquals(Math.min(groupSize, 200 - target.announcedFrom.get(i)), target.announcedCount.get(i));
            }
        } else {
            assertEquals(List.of(), target.announcedFrom);
        }
    }

    private static InputReader<Integer> reader(InputGate gate, Input<Integer> target, TaskSignals signals) {
        InputReader<Integer> reader = new InputReader<>(gate, target, "head", "task (1/1)", signals);
        CheckpointBarrierHandler handler = new CheckpointBarrierHandler(new InputGate[] {gate},
                new CheckpointBarrierHandler.Target() {
                    @Override
                    public void triggerCheckpointOnBarrier(
                            dev.runnel.runtime.io.CheckpointBarrier barrier, long alignmentNanos) {}

                    @Override
                    public void abortCheckpointOnBarrier(long checkpointId, String reason) {}
                });
        reader.setBarrierHandler(handler, 0);
        return reader;
    }

    private static RecordBatch batchOf(int n) {
        RecordBatch batch = new RecordBatch(n);
        for (int i = 0; i < n; i++) {
            batch.add(i, i);
        }
        return batch;
    }

    /** Takes records and blocks the output (or cancels the task) during chosen ones, as a full channel would. */
    private static final class RecordingTarget implements Input<Integer> {
        final TaskSignals signals;
        final int groupSize;
        final Set<Integer> blockAt;
        int cancelAt = -1;
        final List<Integer> values = new ArrayList<>();
        final List<Integer> announcedFrom = new ArrayList<>();
        final List<Integer> announcedCount = new ArrayList<>();

        RecordingTarget(TaskSignals signals, int groupSize, Set<Integer> blockAt) {
            this.signals = signals;
            this.groupSize = groupSize;
            this.blockAt = blockAt;
        }

        @Override
        public int keyContextGroupSize() {
            return groupSize;
        }

        @Override
        public void prepareKeyContexts(RecordBatch batch, int from, int count) {
            announcedFrom.add(from);
            announcedCount.add(count);
        }

        @Override
        public void processElement(StreamRecord<Integer> element) {
            int v = element.getValue();
            values.add(v);
            if (blockAt.contains(v)) {
                signals.outputBlocked = true;
            }
            if (v == cancelAt) {
                signals.cancelled = true;
            }
        }

        @Override
        public void processWatermark(Watermark mark) {}

        @Override
        public void processWatermarkStatus(boolean idle) {}
    }
}
