package dev.runnel.streaming.api.graph;

import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.configuration.ExecutionOptions;
import dev.runnel.streaming.runtime.source.SourceOperator;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.partitioner.ForwardPartitioner;
import dev.runnel.runtime.partitioner.RebalancePartitioner;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.ChainingStrategy;
import dev.runnel.streaming.api.transformations.PartitionTransformation;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.transformations.SideOutputTransformation;
import dev.runnel.streaming.api.transformations.Transformation;
import dev.runnel.streaming.api.transformations.UnionTransformation;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Turns the recorded transformations into a {@link StreamGraph}: an operator node per physical step,
 * with partitioning, unions and side outputs folded into the edges. An edge without an explicit
 * partitioner is forward when both sides have the same parallelism and rebalance otherwise, as in
 * Flink.
 */
public final class StreamGraphGenerator {

    private final StreamGraph graph;
    private final int defaultParallelism;
    private final int defaultMaxParallelism;
    private final SerializerConfig serializerConfig;
    private final Map<Integer, List<Handle>> translated = new HashMap<>();

    /** What a step's output looks like to its consumers: a node, plus partitioning and side output. */
    private record Handle(int nodeId, StreamPartitioner<?> partitioner, OutputTag<?> tag) {}

    /**
     * @param defaultMaxParallelism the job's max parallelism, or -1 to derive it per operator
     */
    public StreamGraphGenerator(StreamGraph graph, int defaultParallelism, int defaultMaxParallelism) {
        this.graph = graph;
        this.defaultParallelism = defaultParallelism;
        this.defaultMaxParallelism = defaultMaxParallelism;
        this.serializerConfig = graph.getExecutionConfig().getSerializerConfig();
    }

    /**
     * Adds every transformation (and what it reads) to the graph, validates it, and resolves the
     * runtime mode ({@code execution.runtime-mode}): AUTOMATIC becomes BATCH when every source is
     * bounded and STREAMING otherwise; BATCH with an unbounded source fails, naming it.
     */
    public StreamGraph generate(List<Transformation<?>> transformations) {
        for (Transformation<?> t : transformations) {
            translate(t);
        }
        graph.validate();
        graph.setRuntimeExecutionMode(resolveRuntimeMode());
        return graph;
    }

    private RuntimeExecutionMode resolveRuntimeMode() {
        RuntimeExecutionMode configured = graph.getConfiguration().get(ExecutionOptions.RUNTIME_MODE);
        StreamNode unbounded = firstUnboundedSource();
        if (configured == RuntimeExecutionMode.AUTOMATIC) {
            return unbounded == null ? RuntimeExecutionMode.BATCH : RuntimeExecutionMode.STREAMING;
        }
        if (configured == RuntimeExecutionMode.BATCH && unbounded != null) {
            throw new IllegalStateException("Source '" + unbounded.getName() + "' is unbounded (CONTINUOUS_UNBOUNDED), "
                    + "but the job '" + graph.getJobName() + "' is set to run in BATCH mode ('"
                    + ExecutionOptions.RUNTIME_MODE.key() + "'), which needs every source to end. Use a bounded "
                    + "source, or set the runtime mode to STREAMING or AUTOMATIC.");
        }
        return configured;
    }

    /** The first source node that does not end by itself, or null if every source is bounded. */
    private StreamNode firstUnboundedSource() {
        for (StreamNode node : graph.getNodes()) {
            if (node.getInEdges().isEmpty() && boundedness(node) != Boundedness.BOUNDED) {
                return node;
            }
        }
        return null;
    }

    /** A FLIP-27 source says; a legacy SourceFunction is unbounded, as in Flink. */
    private static Boundedness boundedness(StreamNode node) {
        if (node.getOperator() instanceof SourceOperator<?, ?> source) {
            return source.getSource().getBoundedness();
        }
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    private List<Handle> translate(Transformation<?> t) {
        List<Handle> done = translated.get(t.getId());
        if (done != null) {
            return done;
        }
        List<Handle> handles;
        if (t instanceof PartitionTransformation<?> partition) {
            handles = new ArrayList<>();
            for (Handle h : translate(partition.getInput())) {
                handles.add(new Handle(h.nodeId(), partition.getPartitioner(), h.tag()));
            }
        } else if (t instanceof UnionTransformation<?> union) {
            handles = new ArrayList<>();
            for (Transformation<?> input : union.getUnionInputs()) {
                handles.addAll(translate(input));
            }
        } else if (t instanceof SideOutputTransformation<?> side) {
            handles = new ArrayList<>();
            for (Handle h : translate(side.getInput())) {
                handles.add(new Handle(h.nodeId(), h.partitioner(), side.getTag()));
            }
        } else if (t instanceof PhysicalTransformation<?> physical) {
            handles = List.of(new Handle(addNode(physical), null, null));
        } else {
            throw new IllegalArgumentException("Unknown transformation " + t);
        }
        translated.put(t.getId(), handles);
        return handles;
    }

    private int addNode(PhysicalTransformation<?> t) {
        List<List<Handle>> inputs = new ArrayList<>();
        for (Transformation<?> input : t.getInputs()) {
            inputs.add(translate(input));
        }
        int parallelism = t.getParallelism() > 0 ? t.getParallelism() : defaultParallelism;
        int maxParallelism = t.getMaxParallelism() > 0 ? t.getMaxParallelism()
                : defaultMaxParallelism > 0 ? defaultMaxParallelism
                : KeyGroupRangeAssignment.computeDefaultMaxParallelism(Math.min(parallelism,
                        KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM));
        TypeSerializer<?> outputSerializer = t.isSink() ? null : t.getOutputType().createSerializer(serializerConfig);
        TypeSerializer<?> keySerializer = t.getKeyType() == null ? null : t.getKeyType().createSerializer(serializerConfig);
        ChainingStrategy strategy = t.getChainingStrategy() != null ? t.getChainingStrategy()
                : t.getOperator() instanceof AbstractStreamOperator<?> op ? op.getChainingStrategy() : ChainingStrategy.ALWAYS;
        StreamNode node = new StreamNode(t.getId(), t.getName(), t.getUid(), t.getOperator(), parallelism,
                maxParallelism, slotSharingGroup(t, inputs), strategy, t.getChainingSetBy(), outputSerializer,
                t.getKeySelector1(), t.getKeySelector2(), keySerializer, t.isSink());
        node.setParallelismConfigured(t.getParallelism() > 0);
        graph.addNode(node);
        for (int i = 0; i < inputs.size(); i++) {
            for (Handle h : inputs.get(i)) {
                StreamPartitioner<?> partitioner = h.partitioner();
                if (partitioner == null) {
                    partitioner = graph.getNode(h.nodeId()).getParallelism() == parallelism
                            ? new ForwardPartitioner<>() : new RebalancePartitioner<>();
                }
                graph.addEdge(h.nodeId(), node.getId(), partitioner, h.tag(), i + 1);
            }
        }
        return node.getId();
    }

    /** The step's own group, else its inputs' group if they agree, else "default" (Flink's rule). */
    private String slotSharingGroup(PhysicalTransformation<?> t, List<List<Handle>> inputs) {
        if (t.getSlotSharingGroup() != null) {
            return t.getSlotSharingGroup();
        }
        Set<String> groups = new HashSet<>();
        for (List<Handle> handles : inputs) {
            for (Handle h : handles) {
                groups.add(graph.getNode(h.nodeId()).getSlotSharingGroup());
            }
        }
        return groups.size() == 1 ? groups.iterator().next() : "default";
    }
}
