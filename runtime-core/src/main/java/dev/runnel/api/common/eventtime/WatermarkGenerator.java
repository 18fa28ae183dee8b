package dev.runnel.api.common.eventtime;

/**
 * Generates watermarks from the events it sees, either on each event or periodically (every
 * {@code ExecutionConfig#getAutoWatermarkInterval()} milliseconds, 200 by default). Task thread only;
 * one instance per source reader or per assigner subtask.
 */
public interface WatermarkGenerator<T> {

    /** Called for every event, with the timestamp the assigner gave it. */
    void onEvent(T event, long eventTimestamp, WatermarkOutput output);

    /** Called periodically; may emit a watermark. */
    void onPeriodicEmit(WatermarkOutput output);
}
