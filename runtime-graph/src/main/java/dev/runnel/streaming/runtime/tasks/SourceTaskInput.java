package dev.runnel.streaming.runtime.tasks;

import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.streaming.runtime.source.PollableSource;
import java.util.concurrent.CompletableFuture;

/**
 * Drives a source task: polls the source (a FLIP-27 reader or a legacy source function's hand-off);
 * when it has nothing, waits on its availability future,
 * which wakes the task thread when it completes.
 */
final class SourceTaskInput implements TaskInput {

    private final PollableSource source;
    private final TaskWaker waker;
    private CompletableFuture<Void> watched;

    SourceTaskInput(PollableSource source, TaskWaker waker) {
        this.source = source;
        this.waker = waker;
    }

    @Override
    public InputStatus processInput() throws Exception {
        InputStatus status = source.emitNext();
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
