package dev.runnel.streaming.api;

/**
 * Timers and time of the current key, as seen from a process function. Registering the same
 * timestamp twice for a key registers one timer. Task thread only, while handling a record or timer.
 */
public interface TimerService {

    /** The message of the error when timers are used on a stream that is not keyed. */
    String UNSUPPORTED_REGISTER_TIMER_MSG = "Setting timers is only supported on a keyed stream (after keyBy()).";

    /** The message of the error when timers are deleted on a stream that is not keyed. */
    String UNSUPPORTED_DELETE_TIMER_MSG = "Deleting timers is only supported on a keyed stream (after keyBy()).";

    long currentProcessingTime();

    long currentWatermark();

    void registerProcessingTimeTimer(long time);

    void registerEventTimeTimer(long time);

    void deleteProcessingTimeTimer(long time);

    void deleteEventTimeTimer(long time);
}
