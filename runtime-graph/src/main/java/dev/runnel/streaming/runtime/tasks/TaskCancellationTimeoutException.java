package dev.runnel.streaming.runtime.tasks;

/**
 * A cancelled task did not stop within {@code task.cancellation.timeout}: its thread ignores interrupts
 * somewhere in user code. The message names the task, the operator and the stack; the exception's own stack
 * trace is the stuck thread's, so a log shows exactly where it hangs. The thread is abandoned.
 */
public final class TaskCancellationTimeoutException extends TaskException {

    private static final long serialVersionUID = 1L;

    TaskCancellationTimeoutException(String message, StackTraceElement[] stuckAt) {
        super(message, null);
        setStackTrace(stuckAt);
    }
}
