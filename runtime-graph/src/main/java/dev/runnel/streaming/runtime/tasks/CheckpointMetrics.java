package dev.runnel.streaming.runtime.tasks;

/**
 * What one subtask's part of a checkpoint cost: the time its channels were aligned (from the first barrier
 * to the last), the synchronous pause on the task thread, the asynchronous write, and the bytes written.
 */
public record CheckpointMetrics(long alignmentMillis, long syncMillis, long asyncMillis, long stateSize)
        implements java.io.Serializable {}
