package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.streaming.api.operators.StreamTaskContext.ThrowingRunnable;
import dev.runnel.streaming.runtime.operators.OperatorException;
import java.util.concurrent.ConcurrentLinkedQueue;

/**
 * The task's inbox of actions that must run on the task thread: timers, periodic watermarks, buffer
 * flushes, source split assignments, cancellation. Any thread may {@link #put}; only the task thread
 * runs mails, between records, so operators never see concurrent calls.
 *
 * <p>The record loop's fast path reads one volatile flag ({@link #hasMail()}).
 */
final class TaskMailbox {

    /** One action and what it is for (for error messages). */
    record Mail(ThrowingRunnable action, String description) {}

    private final ConcurrentLinkedQueue<Mail> queue = new ConcurrentLinkedQueue<>();
    private final TaskWaker waker;
    private volatile boolean hasMail;

    TaskMailbox(TaskWaker waker) {
        this.waker = waker;
    }

    /** Adds a mail and wakes the task. Thread-safe. */
    void put(ThrowingRunnable action, String description) {
        queue.add(new Mail(action, description));
        hasMail = true;
        waker.wake();
    }

    boolean hasMail() {
        return hasMail;
    }

    /** Runs every mail queued now, in order. Task thread only. */
    void runAll() throws Exception {
        hasMail = false;
        Mail mail;
        while ((mail = queue.poll()) != null) {
            try {
                mail.action().run();
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw new TaskException("Failed in " + mail.description() + ": " + e, e);
            }
        }
    }

    /** Drops every queued mail (the task is shutting down). */
    void clear() {
        queue.clear();
        hasMail = false;
    }
}
