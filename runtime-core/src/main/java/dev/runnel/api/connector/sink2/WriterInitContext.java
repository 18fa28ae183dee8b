package dev.runnel.api.connector.sink2;

import dev.runnel.metrics.MetricGroup;

/** What a {@link Sink} may know when creating the writer of a subtask. */
public interface WriterInitContext {

    int getSubtaskId();

    int getNumberOfParallelSubtasks();

    int getAttemptNumber();

    MetricGroup metricGroup();

    /** The wall clock, for time-based rolling. */
    long currentProcessingTime();
}
