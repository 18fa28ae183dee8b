package dev.runnel.api.connector.sink2;

import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.timers.ProcessingTimeService;

/**
 * What a {@link Sink} may know when creating (or restoring) the writer of a subtask.
 *
 * <p>Difference from Flink: {@link #getProcessingTimeService()} returns Runnel's task timer service
 * ({@code dev.runnel.runtime.timers.ProcessingTimeService}), which has the same two methods as Flink's
 * {@code api.common.operators.ProcessingTimeService}; callbacks run on the task thread.
 */
public interface WriterInitContext extends InitContext {

    MetricGroup metricGroup();

    /** The wall clock, for time-based rolling. */
    long currentProcessingTime();

    /**
     * Timers on the task thread, for writers that act on time without records (a file sink's bucket checks).
     *
     * @throws UnsupportedOperationException in contexts without timers (hand-made test contexts)
     */
    default ProcessingTimeService getProcessingTimeService() {
        throw new UnsupportedOperationException("This writer context has no processing-time service");
    }
}
