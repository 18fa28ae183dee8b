package dev.runnel.runtime.jobgraph;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackend;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
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

    /**
     * Gives the vertices that contain an operator with one of the given operator ids (uids) a new parallelism.
     * Checked first, changing nothing on an error: every id must exist, a parallelism must lie in
     * {@code [1, max parallelism]}, and a forward edge must keep connecting equal parallelisms. Call it only
     * while no task of this graph runs (between two deployments).
     *
     * @return the vertices whose parallelism changed, by id
     * @throws IllegalArgumentException naming what is wrong
     */
    public Map<String, Integer> rescale(Map<String, Integer> parallelismByOperatorId) {
        Map<String, Integer> byVertex = checkRescale(parallelismByOperatorId);
        byVertex.forEach((id, parallelism) -> getVertex(id).setParallelism(parallelism));
        return byVertex;
    }

    /** What {@link #rescale} would change, by vertex id, checked as there; changes nothing. */
    public Map<String, Integer> checkRescale(Map<String, Integer> parallelismByOperatorId) {
        Map<String, Integer> byVertex = new java.util.LinkedHashMap<>();
        for (Map.Entry<String, Integer> entry : parallelismByOperatorId.entrySet()) {
            JobVertex vertex = vertices.stream()
                    .filter(v -> v.getOperators().stream().anyMatch(o -> o.getConfig().operatorId().equals(entry.getKey())))
                    .findFirst().orElseThrow(() -> new IllegalArgumentException("Job '" + jobName
                            + "' has no operator with uid '" + entry.getKey() + "'; its operators' ids are "
                            + vertices.stream().flatMap(v -> v.getOperators().stream())
                                    .map(o -> o.getConfig().operatorId() + " (" + o.getName() + ")").toList()));
            int parallelism = entry.getValue();
            if (parallelism < 1 || parallelism > vertex.getMaxParallelism()) {
                throw new IllegalArgumentException("Operator '" + entry.getKey() + "' cannot run at parallelism "
                        + parallelism + ": it must lie between 1 and its max parallelism " + vertex.getMaxParallelism());
            }
            Integer other = byVertex.put(vertex.getId(), parallelism);
            if (other != null && other != parallelism) {
                throw new IllegalArgumentException("Operators of the chain '" + vertex.getName()
                        + "' were given parallelisms " + other + " and " + parallelism + "; a chain runs at one");
            }
        }
        for (JobVertex vertex : vertices) {
            for (JobEdge edge : vertex.getOutputs()) {
                int source = byVertex.getOrDefault(edge.getSource().getId(), edge.getSource().getParallelism());
                int target = byVertex.getOrDefault(edge.getTarget().getId(), edge.getTarget().getParallelism());
                if (edge.getPartitioner() instanceof dev.runnel.runtime.partitioner.ForwardPartitioner<?>
                        && source != target) {
                    throw new IllegalArgumentException("The forward edge " + edge + " would connect parallelism "
                            + source + " to " + target + "; rescale both sides together, or put a rebalance() or"
                            + " shuffle() between them");
                }
            }
        }
        return byVertex;
    }

    /**
     * Gives {@code vertex}, whose parallelism the job did not set, the parallelism its input calls for; the
     * adaptive BATCH scheduling calls it before any subtask of the vertex deploys.
     *
     * @throws IllegalArgumentException if the vertex's parallelism was set by the job, or {@code parallelism} lies
     *     outside {@code [1, max parallelism]}
     */
    public void decideParallelism(JobVertex vertex, int parallelism) {
        if (vertex.isParallelismConfigured()) {
            throw new IllegalArgumentException("The parallelism of '" + vertex.getName() + "' was set by the job ("
                    + vertex.getParallelism() + ") and is not decided from its input");
        }
        if (parallelism < 1 || parallelism > vertex.getMaxParallelism()) {
            throw new IllegalArgumentException("'" + vertex.getName() + "' cannot run at parallelism " + parallelism
                    + ": it must lie between 1 and its max parallelism " + vertex.getMaxParallelism());
        }
        vertex.setParallelism(parallelism);
    }

    public int getTotalSubtasks() {
        return vertices.stream().mapToInt(JobVertex::getParallelism).sum();
    }
}
