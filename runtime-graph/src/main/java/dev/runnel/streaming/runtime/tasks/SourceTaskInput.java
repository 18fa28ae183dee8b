package dev.runnel.streaming.runtime.tasks;

import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.streaming.runtime.source.PollableSource;
import java.util.concurrent.CompletableFuture;

/**
 * Drives a source task: polls the source (a FLIP-27 reader or a legacy source function's hand-off) for
 * a run of records per call; when it has nothing, waits on its availability future, which wakes the
 * task thread when it completes.
 *
 * <p>A run ends after {@link #RUN_LENGTH} records, or earlier when mail arrives, an output fills up or
 * the task is cancelled: between two records the task reacts as if it had returned to its mailbox loop
 * after each. The run keeps the per-record loop in one short method that the JIT compiles whole, instead
 * of a pass through the mailbox loop per record, whose rarely taken branches (the first backpressure, the
 * first mail) would each deoptimize the compiled loop of a busy source and leave it interpreted until
 * it is compiled again. Task thread only.
 */
final class SourceTaskInput implements TaskInput {

    /** Records per call at most: mail waits for no more than this many records. */
    static final int RUN_LENGTH = 128;

    private final PollableSource source;
    private final TaskWaker waker;
    private final TaskSignals signals;
    private final TaskMailbox mailbox;
    private CompletableFuture<Void> watched;

    SourceTaskInput(PollableSource source, TaskWaker waker, TaskSignals signals, TaskMailbox mailbox) {
        this.source = source;
        this.waker = waker;
        this.signals = signals;
        this.mailbox = mailbox;
    }

    @Override
    public InputStatus processInput() throws Exception {
        InputStatus status;
        int left = RUN_LENGTH;
        do {
            status = source.emitNext();
        } while (status == InputStatus.MORE_AVAILABLE && --left > 0 && !signals.shouldYield() && !mailbox.hasMail());
        if (status == InputStatus.NOTHING_AVAILABLE) {
            CompletableFuture<Void> available = source.isAvailable();
            if (available != watched) {
                watched = available;
                available.thenRun(waker::wake);
            }
        }
        return status;
    }

    @Override
    public boolean isAvailable() {
        return source.isAvailable().isDone();
    }

    @Override
    public void close() {}
}
