package dev.runnel.api.common;

import java.util.Collections;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * What a finished job reports: its id, how long it ran, and its accumulators, each merged across
 * all subtasks that registered it (see {@code RuntimeContext#addAccumulator}). Immutable.
 */
public final class JobExecutionResult {

    private final JobID jobId;
    private final long netRuntimeMillis;
    private final Map<String, Object> accumulators;

    public JobExecutionResult(JobID jobId, long netRuntimeMillis, Map<String, Object> accumulators) {
        this.jobId = jobId;
        this.netRuntimeMillis = netRuntimeMillis;
        this.accumulators = Collections.unmodifiableMap(accumulators);
    }

    public JobID getJobID() {
        return jobId;
    }

    /** Milliseconds from the start of the first task to the end of the last. */
    public long getNetRuntime() {
        return netRuntimeMillis;
    }

    public long getNetRuntime(TimeUnit unit) {
        return unit.convert(netRuntimeMillis, TimeUnit.MILLISECONDS);
    }

    /** The merged value of accumulator {@code name}, or null if no subtask registered it. */
    @SuppressWarnings("unchecked")
    public <T> T getAccumulatorResult(String name) {
        return (T) accumulators.get(name);
    }

    /**
     * The merged value of the int accumulator {@code name} (an {@code IntCounter}, {@code IntMaximum}
     * or {@code IntMinimum}), or null if no subtask registered it.
     *
     * @throws ClassCastException if the accumulator's result is not an Integer
     * @deprecated use {@link #getAccumulatorResult(String)}
     */
    @Deprecated
    public Integer getIntCounterResult(String name) {
        Object result = accumulators.get(name);
        if (result != null && !(result instanceof Integer)) {
            throw new ClassCastException("Requested result of the accumulator '" + name
                    + "' should be Integer but has type " + result.getClass().getName()
                    + "; read it with getAccumulatorResult(name).");
        }
        return (Integer) result;
    }

    /** Every accumulator's merged value by name; read-only. */
    public Map<String, Object> getAllAccumulatorResults() {
        return accumulators;
    }

    @Override
    public String toString() {
        return "JobExecutionResult{job=" + jobId + ", netRuntime=" + netRuntimeMillis + " ms, accumulators="
                + accumulators + '}';
    }
}
