package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.timers.ProcessingTimeService;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

/**
 * Processing time for one task: a shared scheduler thread waits for the time, then the callback is
 * put in the task's mailbox, so it runs on the task thread. A cancelled callback that already sits
 * in the mailbox is skipped.
 */
final class TaskProcessingTimeService implements ProcessingTimeService {

    private final ScheduledExecutorService scheduler;
    private final TaskMailbox mailbox;
    private volatile boolean shutdown;

    TaskProcessingTimeService(ScheduledExecutorService scheduler, TaskMailbox mailbox) {
        this.scheduler = scheduler;
        this.mailbox = mailbox;
    }

    @Override
    public long getCurrentProcessingTime() {
        return System.currentTimeMillis();
    }

    @Override
    public Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback) {
        ScheduledTimer timer = new ScheduledTimer(timestamp, callback);
        if (shutdown) {
            return timer;
        }
        long delay = Math.max(0, timestamp - getCurrentProcessingTime());
        timer.future = scheduler.schedule(timer::enqueue, delay, TimeUnit.MILLISECONDS);
        return timer;
    }

    /** Stops all future callbacks (the task is ending). */
    void shutdown() {
        shutdown = true;
    }

    private final class ScheduledTimer implements Cancellable {
        private final long timestamp;
        private final ProcessingTimeCallback callback;
        private volatile boolean cancelled;
        private volatile ScheduledFuture<?> future;

        ScheduledTimer(long timestamp, ProcessingTimeCallback callback) {
            this.timestamp = timestamp;
            this.callback = callback;
        }

        void enqueue() {
            if (!cancelled && !shutdown) {
                mailbox.put(() -> {
                    if (!cancelled && !shutdown) {
                        callback.onProcessingTime(timestamp);
                    }
                }, "processing-time timer at " + timestamp);
            }
        }

        @Override
        public void cancel() {
            cancelled = true;
            ScheduledFuture<?> f = future;
            if (f != null) {
                f.cancel(false);
            }
        }
    }
}
