package dev.runnel.streaming.api.graph;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.InvalidProgramException;
import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.util.OutputTag;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The job as a graph of operators (one node per operator-producing step) and the edges between them,
 * each edge with its partitioner. The job graph is compiled from it by chaining nodes.
 *
 * <p>Built on one thread; immutable in practice once {@link #validate()} passed.
 */
public final class StreamGraph {

    private String jobName;
    private final ExecutionConfig executionConfig;
    private final Configuration configuration;
    private final StateBackend stateBackend;
    private final long bufferTimeoutMillis;
    private final boolean chainingEnabled;
    private final Map<Integer, StreamNode> nodes = new LinkedHashMap<>();
    private final List<StreamEdge> edges = new ArrayList<>();
    private RuntimeExecutionMode runtimeExecutionMode = RuntimeExecutionMode.STREAMING;

    public StreamGraph(String jobName, ExecutionConfig executionConfig, Configuration configuration,
            StateBackend stateBackend, long bufferTimeoutMillis, boolean chainingEnabled) {
        this.jobName = jobName;
        this.executionConfig = executionConfig;
        this.configuration = configuration;
        this.stateBackend = stateBackend;
        this.bufferTimeoutMillis = bufferTimeoutMillis;
        this.chainingEnabled = chainingEnabled;
    }

    public String getJobName() {
        return jobName;
    }

    /** Renames the job, e.g. before {@code env.execute(streamGraph)}. */
    public void setJobName(String jobName) {
        this.jobName = Objects.requireNonNull(jobName, "jobName");
    }

    /**
     * Compiles this graph into the job graph the runtime runs: operators chained into job vertices,
     * the execution config shipped as a serialized copy.
     */
    public JobGraph getJobGraph() {
        return StreamingJobGraphGenerator.createJobGraph(this);
    }

    public ExecutionConfig getExecutionConfig() {
        return executionConfig;
    }

    public Configuration getConfiguration() {
        return configuration;
    }

    public StateBackend getStateBackend() {
        return stateBackend;
    }

    public long getBufferTimeoutMillis() {
        return bufferTimeoutMillis;
    }

    public boolean isChainingEnabled() {
        return chainingEnabled;
    }

    /** How the job runs: STREAMING or BATCH, AUTOMATIC already resolved by the generator. */
    public RuntimeExecutionMode getRuntimeExecutionMode() {
        return runtimeExecutionMode;
    }

    /** Sets the resolved mode; AUTOMATIC is not a mode a job runs in. */
    public void setRuntimeExecutionMode(RuntimeExecutionMode mode) {
        if (Objects.requireNonNull(mode, "mode") == RuntimeExecutionMode.AUTOMATIC) {
            throw new IllegalArgumentException("A stream graph runs in STREAMING or BATCH; resolve AUTOMATIC first");
        }
        this.runtimeExecutionMode = mode;
    }

    public void addNode(StreamNode node) {
        if (nodes.putIfAbsent(node.getId(), node) != null) {
            throw new IllegalArgumentException("node " + node.getId() + " exists already");
        }
    }

    /**
     * Connects {@code source} to input {@code typeNumber} of {@code target}. A key-group partitioner is
     * set to the target's max parallelism.
     */
    public StreamEdge addEdge(int sourceId, int targetId, StreamPartitioner<?> partitioner, OutputTag<?> outputTag,
            int typeNumber) {
        StreamNode source = getNode(sourceId);
        StreamNode target = getNode(targetId);
        StreamEdge edge = new StreamEdge(source, target, partitioner.forMaxParallelism(target.getMaxParallelism()),
                outputTag, typeNumber);
        source.addOutEdge(edge);
        target.addInEdge(edge);
        edges.add(edge);
        return edge;
    }

    public StreamNode getNode(int id) {
        StreamNode node = nodes.get(id);
        if (node == null) {
            throw new IllegalArgumentException("no stream node " + id);
        }
        return node;
    }

    public Collection<StreamNode> getNodes() {
        return Collections.unmodifiableCollection(nodes.values());
    }

    public List<StreamEdge> getEdges() {
        return Collections.unmodifiableList(edges);
    }

    /**
     * Checks the graph can run, failing with a message that names the operator and the fix: a job
     * without sinks, a forward edge between different parallelisms, a parallelism above the max
     * parallelism, a max parallelism above 32768, duplicate uids, a cycle.
     */
    public void validate() {
        if (nodes.values().stream().noneMatch(StreamNode::isSink)) {
            throw new InvalidProgramException("The job '" + jobName + "' has no sink, so it would compute nothing "
                    + "anyone can see. Add a sink to the end of the pipeline: print(), sinkTo(...) or addSink(...).");
        }
        Map<String, StreamNode> uids = new HashMap<>();
        for (StreamNode node : nodes.values()) {
            if (node.getMaxParallelism() > KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM) {
                throw new InvalidProgramException("Operator '" + node.getName() + "' has max parallelism "
                        + node.getMaxParallelism() + ", above the limit of "
                        + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM + " key groups. Lower setMaxParallelism(...).");
            }
            if (node.getParallelism() > node.getMaxParallelism()) {
                throw new InvalidProgramException("Operator '" + node.getName() + "' has parallelism "
                        + node.getParallelism() + ", above its max parallelism " + node.getMaxParallelism()
                        + ". Lower its parallelism or raise setMaxParallelism(...) (at most "
                        + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM + ").");
            }
            if (node.getUid() != null) {
                StreamNode previous = uids.putIfAbsent(node.getUid(), node);
                if (previous != null) {
                    throw new InvalidProgramException("The uid '" + node.getUid() + "' is used by operator '"
                            + previous.getName() + "' and by operator '" + node.getName()
                            + "'. A uid identifies an operator's state, so every uid must be unique in the job.");
                }
            }
        }
        for (StreamEdge edge : edges) {
            if (edge.getPartitioner().isForward()
                    && edge.getSource().getParallelism() != edge.getTarget().getParallelism()) {
                throw new InvalidProgramException("forward() cannot connect operators of different parallelism: '"
                        + edge.getSource().getName() + "' has parallelism " + edge.getSource().getParallelism()
                        + " and '" + edge.getTarget().getName() + "' has " + edge.getTarget().getParallelism()
                        + ". Use rebalance() (or rescale() to stay local) instead of forward(), or give both the same parallelism.");
            }
        }
        topologicalOrder();
    }

    /** The nodes in an order where every node comes after its inputs; fails on a cycle, naming it. */
    public List<StreamNode> topologicalOrder() {
        Map<Integer, Integer> pendingInputs = new HashMap<>();
        Deque<StreamNode> ready = new ArrayDeque<>();
        for (StreamNode node : nodes.values()) {
            pendingInputs.put(node.getId(), node.getInEdges().size());
            if (node.getInEdges().isEmpty()) {
                ready.add(node);
            }
        }
        List<StreamNode> order = new ArrayList<>();
        while (!ready.isEmpty()) {
            StreamNode node = ready.poll();
            order.add(node);
            for (StreamEdge edge : node.getOutEdges()) {
                int left = pendingInputs.merge(edge.getTarget().getId(), -1, Integer::sum);
                if (left == 0) {
                    ready.add(edge.getTarget());
                }
            }
        }
        if (order.size() != nodes.size()) {
            List<String> inCycle = new ArrayList<>();
            for (StreamNode node : nodes.values()) {
                if (pendingInputs.get(node.getId()) > 0) {
                    inCycle.add("'" + node.getName() + "'");
                }
            }
            throw new InvalidProgramException("The job '" + jobName + "' contains a cycle through operators "
                    + String.join(", ", inCycle) + ". Streams must flow from sources to sinks without loops.");
        }
        return order;
    }
}
