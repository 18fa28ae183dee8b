package dev.runnel.streaming.runtime.tasks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.streaming.runtime.source.PollableSource;
import java.util.concurrent.CompletableFuture;
import java.util.function.IntConsumer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A source task polls its source for a run of records per call into its input, and must stop right after the
 * record during which mail arrived, an output filled up or the task was cancelled, as if it had gone back to its
 * mailbox loop after every record; a source with nothing or with its end stops the run at once.
 */
@Timeout(30)
class SourceTaskInputRunTest {

    private final TaskSignals signals = new TaskSignals();
    private final TaskWaker waker = TaskWaker.forCurrentThread();
    private final TaskMailbox mailbox = new TaskMailbox(waker);

    @Test
    void anEndlessSourceReturnsAfterOneRun() throws Exception {
        CountingSource source = new CountingSource(Long.MAX_VALUE, i -> {});
        SourceTaskInput input = new SourceTaskInput(source, waker, signals, mailbox);

        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(SourceTaskInput.RUN_LENGTH, source.emitted);
        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(2L * SourceTaskInput.RUN_LENGTH, source.emitted);
    }

    @Test
    void mailStopsTheRunRightAfterTheRecordDuringWhichItArrived() throws Exception {
        CountingSource source = new CountingSource(Long.MAX_VALUE, i -> {
            if (i == 9) {
                mailbox.put(() -> {}, "a checkpoint, say");
            }
        });
        SourceTaskInput input = new SourceTaskInput(source, waker, signals, mailbox);

        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(10, source.emitted);
        assertTrue(mailbox.hasMail(), "the mailbox loop runs the mail before it polls again");
    }

    @Test
    void aFullOutputOrCancellationStopsTheRunRightAfterThatRecord() throws Exception {
        CountingSource source = new CountingSource(Long.MAX_VALUE, i -> {
            if (i == 4) {
                signals.outputBlocked = true;
            }
            if (i == 20) {
                signals.cancelled = true;
            }
        });
        SourceTaskInput input = new SourceTaskInput(source, waker, signals, mailbox);

        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(5, source.emitted);
        signals.outputBlocked = false; // what the task does once its outputs have room again
        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(21, source.emitted);
    }

    @Test
    void theEndOfInputEndsTheRunAndIsReported() throws Exception {
        CountingSource source = new CountingSource(3, i -> {});
        SourceTaskInput input = new SourceTaskInput(source, waker, signals, mailbox);

        assertEquals(InputStatus.END_OF_INPUT, input.processInput());
        assertEquals(3, source.emitted);
        assertEquals(1, source.pollsAfterEnd, "not polled again once it reported its end");
    }

    @Test
    void aSourceWithNothingEndsTheRunAndIsPolledAgainOnceAvailable() throws Exception {
        CountingSource source = new CountingSource(Long.MAX_VALUE, i -> {});
        source.nothingAfter = 7;
        SourceTaskInput input = new SourceTaskInput(source, waker, signals, mailbox);

        assertEquals(InputStatus.NOTHING_AVAILABLE, input.processInput());
        assertEquals(7, source.emitted);
        assertEquals(1, source.pollsWithNothing);
        source.nothingAfter = Long.MAX_VALUE;
        source.available.complete(null);
        assertEquals(InputStatus.MORE_AVAILABLE, input.processInput());
        assertEquals(7 + SourceTaskInput.RUN_LENGTH, source.emitted);
    }

    /** Emits {@code limit} records (counted), calling {@code onRecord} with each one's index. */
    private static final class CountingSource implements PollableSource {
        private final long limit;
        private final IntConsumer onRecord;
        long emitted;
        long nothingAfter = Long.MAX_VALUE;
        int pollsAfterEnd;
        int pollsWithNothing;
        final CompletableFuture<Void> available = new CompletableFuture<>();

        CountingSource(long limit, IntConsumer onRecord) {
            this.limit = limit;
            this.onRecord = onRecord;
        }

        @Override
        public InputStatus emitNext() {
            if (emitted >= limit) {
                pollsAfterEnd++;
                return InputStatus.END_OF_INPUT;
            }
            if (emitted >= nothingAfter) {
                pollsWithNothing++;
                return InputStatus.NOTHING_AVAILABLE;
            }
            onRecord.accept((int) emitted);
            emitted++;
            return InputStatus.MORE_AVAILABLE;
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void emitMaxWatermark() {}
    }
}
