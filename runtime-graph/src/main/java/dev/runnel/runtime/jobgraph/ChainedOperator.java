package dev.runnel.runtime.jobgraph;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.operators.OperatorConfig;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.util.OutputTag;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * One operator inside a job vertex's chain: its prototype (copied per subtask), configuration, and
 * where its outputs go: to later operators of the same chain (direct calls) or to job edges.
 */
public final class ChainedOperator implements Serializable {

    private static final long serialVersionUID = 1L;

    /** A chained output: operator {@code targetIndex} of the same chain, for the main output or a side output. */
    public record ChainedOutput(int targetIndex, OutputTag<?> outputTag) implements Serializable {}

    private final int nodeId;
    private final StreamOperator<?> operator;
    private final OperatorConfig config;
    private final TypeSerializer<?> outputSerializer;
    private final List<ChainedOutput> chainedOutputs = new ArrayList<>();
    private final List<JobEdge> networkOutputs = new ArrayList<>();

    public ChainedOperator(int nodeId, StreamOperator<?> operator, OperatorConfig config,
            TypeSerializer<?> outputSerializer) {
        this.nodeId = nodeId;
        this.operator = Objects.requireNonNull(operator);
        this.config = Objects.requireNonNull(config);
        this.outputSerializer = outputSerializer;
    }

    public int getNodeId() {
        return nodeId;
    }

    /** The prototype; each subtask works on a copy. */
    public StreamOperator<?> getOperator() {
        return operator;
    }

    public OperatorConfig getConfig() {
        return config;
    }

    public String getName() {
        return config.name();
    }

    /** The serializer of the main output (null for sinks). */
    public TypeSerializer<?> getOutputSerializer() {
        return outputSerializer;
    }

    public void addChainedOutput(ChainedOutput output) {
        chainedOutputs.add(output);
    }

    public void addNetworkOutput(JobEdge edge) {
        networkOutputs.add(edge);
    }

    public List<ChainedOutput> getChainedOutputs() {
        return Collections.unmodifiableList(chainedOutputs);
    }

    public List<JobEdge> getNetworkOutputs() {
        return Collections.unmodifiableList(networkOutputs);
    }
}
