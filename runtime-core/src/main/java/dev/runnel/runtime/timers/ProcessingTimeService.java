package dev.runnel.runtime.timers;

/**
 * Wall-clock time and wall-clock callbacks for one task. Callbacks run on the task's own thread
 * (through its mailbox), never concurrently with record processing.
 */
public interface ProcessingTimeService {

    /** Milliseconds since the epoch. */
    long getCurrentProcessingTime();

    /**
     * Runs {@code callback} on the task thread once the processing time reaches {@code timestamp}
     * (immediately if it already has). The returned handle cancels it.
     */
    Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback);

    /** A scheduled callback that can be cancelled. */
    interface Cancellable {
        void cancel();
    }

    /** Code to run at a processing time. */
    @FunctionalInterface
    interface ProcessingTimeCallback {
        void onProcessingTime(long time) throws Exception;
    }
}
