package dev.runnel.runtime.jobgraph;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackend;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * The compiled job: job vertices (operator chains) in topological order, connected by job edges,
 * with the job's configuration. Serializable, so it can be submitted to a cluster as it is.
 */
public final class JobGraph implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String jobName;
    private final List<JobVertex> vertices = new ArrayList<>();
    private final ExecutionConfig executionConfig;
    private final Configuration configuration;
    private final StateBackend stateBackend;
    private final long bufferTimeoutMillis;

    public JobGraph(String jobName, ExecutionConfig executionConfig, Configuration configuration,
            StateBackend stateBackend, long bufferTimeoutMillis) {
        this.jobName = Objects.requireNonNull(jobName);
        this.executionConfig = Objects.requireNonNull(executionConfig);
        this.configuration = Objects.requireNonNull(configuration);
        this.stateBackend = stateBackend;
        this.bufferTimeoutMillis = bufferTimeoutMillis;
    }

    public String getJobName() {
        return jobName;
    }

    public void addVertex(JobVertex vertex) {
        vertices.add(vertex);
    }

    /** Vertices in topological order: every vertex after the vertices feeding it. */
    public List<JobVertex> getVertices() {
        return Collections.unmodifiableList(vertices);
    }

    public JobVertex getVertex(String id) {
        return vertices.stream().filter(v -> v.getId().equals(id)).findFirst()
                .orElseThrow(() -> new IllegalArgumentException("no vertex " + id));
    }

    public ExecutionConfig getExecutionConfig() {
        return executionConfig;
    }

    public Configuration getConfiguration() {
        return configuration;
    }

    /** The store the job chose with setStateBackend, or null to use the configured one. */
    public StateBackend getStateBackend() {
        return stateBackend;
    }

    /** Output flush interval in ms; 0 flushes every record, -1 only when buffers are full. */
    public long getBufferTimeoutMillis() {
        return bufferTimeoutMillis;
    }

    public int getTotalSubtasks() {
        return vertices.stream().mapToInt(JobVertex::getParallelism).sum();
    }
}
