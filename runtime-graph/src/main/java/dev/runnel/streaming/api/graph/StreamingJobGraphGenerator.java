package dev.runnel.streaming.api.graph;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExecutionOptions;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.partitioner.KeyGroupStreamPartitioner;
import dev.runnel.streaming.api.operators.ChainingStrategy;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.util.InstantiationUtil;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * Compiles a {@link StreamGraph} into a {@link JobGraph}: chains nodes into job vertices under
 * Flink's rules and turns the remaining edges into job edges that say why they are not chained.
 *
 * <p>An edge is chained when all hold: chaining is enabled for the job; the target has exactly one
 * input edge; both sides have the same parallelism; the partitioner is forward; the source allows
 * successors to chain (not {@code NEVER}); the target allows chaining to its predecessor
 * ({@code ALWAYS}); both are in the same slot sharing group.
 */
public final class StreamingJobGraphGenerator {

    private static final org.slf4j.Logger LOG = org.slf4j.LoggerFactory.getLogger(StreamingJobGraphGenerator.class);


    private StreamingJobGraphGenerator() {}

    /**
     * The execution config as the job's tasks get it: a serialized copy, as Flink ships it, so that
     * what the program changes afterwards (or what functions do to the global job parameters) stays on
     * its side, and parameters that cannot be shipped fail here, naming their class.
     */
    private static ExecutionConfig shippedCopy(ExecutionConfig config) {
        return InstantiationUtil.clone(config, "execution config (with its global job parameters, "
                + config.getGlobalJobParameters().getClass().getName() + ")");
    }

    /** The job's configuration with the resolved runtime mode, which the tasks read. */
    private static Configuration jobConfiguration(StreamGraph graph) {
        return graph.getConfiguration().copy().set(ExecutionOptions.RUNTIME_MODE, graph.getRuntimeExecutionMode());
    }

    public static JobGraph createJobGraph(StreamGraph graph) {
        List<StreamNode> order = graph.topologicalOrder();
        Map<Integer, Integer> headOf = new HashMap<>();
        Map<Integer, List<StreamNode>> chains = new LinkedHashMap<>();
        for (StreamNode node : order) {
            StreamEdge in = node.getInEdges().size() == 1 ? node.getInEdges().get(0) : null;
            if (in != null && chainBreakReason(graph, in) == null) {
                int head = headOf.get(in.getSource().getId());
                headOf.put(node.getId(), head);
                chains.get(head).add(node);
            } else {
                headOf.put(node.getId(), node.getId());
                chains.put(node.getId(), new ArrayList<>(List.of(node)));
            }
        }

        JobGraph jobGraph = new JobGraph(graph.getJobName(), shippedCopy(graph.getExecutionConfig()),
                jobConfiguration(graph), graph.getStateBackend(), graph.getBufferTimeoutMillis());
        Map<Integer, String> operatorIds = StreamGraphHasher.operatorIds(graph);
        warnAboutStatefulOperatorsWithoutUid(graph, jobGraph.getConfiguration());
        Map<Integer, JobVertex> vertexOfHead = new HashMap<>();
        Map<Integer, ChainedOperator> operatorOfNode = new HashMap<>();
        Map<Integer, Integer> indexInChain = new HashMap<>();
        for (Map.Entry<Integer, List<StreamNode>> chain : chains.entrySet()) {
            List<StreamNode> members = chain.getValue();
            StreamNode head = members.get(0);
            String name = members.stream().map(StreamNode::getName).collect(Collectors.joining(" -> "));
            JobVertex vertex = new JobVertex("v" + head.getId(), name, head.getParallelism(), head.getMaxParallelism(),
                    head.getSlotSharingGroup(), members.stream().anyMatch(StreamNode::isParallelismConfigured));
            for (int i = 0; i < members.size(); i++) {
                StreamNode node = members.get(i);
                OperatorConfig config = new OperatorConfig(operatorIds.get(node.getId()), node.getName(), node.getKeySelector1(),
                        node.getKeySelector2(), node.getKeySerializer(), node.getMaxParallelism());
                ChainedOperator operator = new ChainedOperator(node.getId(), node.getOperator(), config,
                        node.getOutputSerializer());
                vertex.addOperator(operator);
                operatorOfNode.put(node.getId(), operator);
                indexInChain.put(node.getId(), i);
            }
            vertexOfHead.put(head.getId(), vertex);
            jobGraph.addVertex(vertex);
        }

        int edgeCounter = 0;
        for (StreamNode node : order) {
            for (StreamEdge edge : node.getOutEdges()) {
                String reason = chainBreakReason(graph, edge);
                ChainedOperator source = operatorOfNode.get(node.getId());
                if (reason == null) {
                    source.addChainedOutput(new ChainedOperator.ChainedOutput(
                            indexInChain.get(edge.getTarget().getId()), edge.getOutputTag()));
                    continue;
                }
                JobVertex from = vertexOfHead.get(headOf.get(node.getId()));
                JobVertex to = vertexOfHead.get(headOf.get(edge.getTarget().getId()));
                TypeSerializer<?> serializer = edge.getOutputTag() != null
                        ? edge.getOutputTag().getTypeInfo().createSerializer(graph.getExecutionConfig().getSerializerConfig())
                        : node.getOutputSerializer();
                JobEdge jobEdge = new JobEdge("e" + (edgeCounter++), from, to, indexInChain.get(node.getId()),
                        edge.getOutputTag(), edge.getTypeNumber(), edge.getPartitioner(), serializer, node.getName(),
                        edge.getTarget().getName(), reason);
                from.addOutput(jobEdge);
                to.addInput(jobEdge);
                source.addNetworkOutput(jobEdge);
            }
        }
        return jobGraph;
    }

    /** Why {@code edge} cannot be chained, in words; null when it can. */
    static String chainBreakReason(StreamGraph graph, StreamEdge edge) {
        StreamNode up = edge.getSource();
        StreamNode down = edge.getTarget();
        if (!graph.isChainingEnabled()) {
            return "chaining disabled for the job (disableOperatorChaining())";
        }
        if (down.getInEdges().size() != 1) {
            return "'" + down.getName() + "' has " + down.getInEdges().size() + " input edges";
        }
        if (up.getParallelism() != down.getParallelism()) {
            return "parallelism " + up.getParallelism() + " \u2192 " + down.getParallelism();
        }
        if (!edge.getPartitioner().isForward()) {
            return edge.getPartitioner() instanceof KeyGroupStreamPartitioner<?, ?>
                    ? "keyBy: KeyGroup partitioner"
                    : edge.getPartitioner() + " partitioner";
        }
        if (up.getChainingStrategy() == ChainingStrategy.NEVER) {
            return up.getChainingSetBy() != null
                    ? up.getChainingSetBy() + " on '" + up.getName() + "'"
                    : "'" + up.getName() + "' never chains";
        }
        if (down.getChainingStrategy() != ChainingStrategy.ALWAYS) {
            if (down.getChainingSetBy() != null) {
                return down.getChainingSetBy() + " on '" + down.getName() + "'";
            }
            return "'" + down.getName() + "' " + (down.getChainingStrategy() == ChainingStrategy.NEVER
                    ? "never chains" : "starts a chain");
        }
        if (!java.util.Objects.equals(up.getSlotSharingGroup(), down.getSlotSharingGroup())) {
            return "slot sharing group '" + up.getSlotSharingGroup() + "' \u2192 '" + down.getSlotSharingGroup() + "'";
        }
        return null;
    }

    /**
     * A job that checkpoints or restores finds its state by operator id; a keyed operator without a uid has
     * one derived from its place in the graph, which changes when the program changes before it. Said once
     * per operator when the job is compiled, so users set uids before their first savepoint matters.
     */
    private static void warnAboutStatefulOperatorsWithoutUid(StreamGraph graph, dev.runnel.configuration.Configuration conf) {
        boolean usesState = conf.toMap().containsKey("execution.checkpointing.interval")
                || conf.toMap().containsKey("execution.state-recovery.path")
                || conf.toMap().containsKey("execution.savepoint.path");
        if (!usesState) {
            return;
        }
        for (StreamNode node : graph.getNodes()) {
            if (node.getUid() == null && (node.getKeySelector1() != null || node.getInEdges().isEmpty())) {
                LOG.warn("Operator '{}' of job '{}' has state but no uid: its state is kept under an id derived from"
                        + " its place in the graph, which changes when operators are added or removed before it, and a"
                        + " savepoint could then not be restored. Set .uid(\"...\") on it.", node.getName(),
                        graph.getJobName());
            }
        }
    }
}
