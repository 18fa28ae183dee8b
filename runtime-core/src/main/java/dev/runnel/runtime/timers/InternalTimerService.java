package dev.runnel.runtime.timers;

/**
 * The timers of one keyed operator, per namespace. Registration and deletion act on the current key;
 * registering the same (key, namespace, timestamp) twice keeps one timer. Task thread only.
 *
 * @param <N> the namespace type (for example a window, or {@code VoidNamespace})
 */
public interface InternalTimerService<N> {

    long currentProcessingTime();

    /** The current event time (watermark); {@code Long.MIN_VALUE} before the first watermark. */
    long currentWatermark();

    void registerProcessingTimeTimer(N namespace, long time);

    void deleteProcessingTimeTimer(N namespace, long time);

    void registerEventTimeTimer(N namespace, long time);

    void deleteEventTimeTimer(N namespace, long time);

    /** The number of event-time timers queued (all keys). */
    int numEventTimeTimers();

    /** The number of processing-time timers queued (all keys). */
    int numProcessingTimeTimers();
}
