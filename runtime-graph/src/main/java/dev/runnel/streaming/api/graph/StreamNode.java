package dev.runnel.streaming.api.graph;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.ChainingStrategy;
import dev.runnel.streaming.api.operators.StreamOperator;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/** One operator of the stream graph, with every setting that decides how it is chained and run. */
public final class StreamNode {

    private final int id;
    private final String name;
    private final String uid;
    private final StreamOperator<?> operator;
    private final int parallelism;
    private final int maxParallelism;
    private final String slotSharingGroup;
    private final ChainingStrategy chainingStrategy;
    private final String chainingSetBy;
    private final TypeSerializer<?> outputSerializer;
    private final KeySelector<?, ?> keySelector1;
    private final KeySelector<?, ?> keySelector2;
    private final TypeSerializer<?> keySerializer;
    private final boolean sink;
    private boolean parallelismConfigured = true;
    private final List<StreamEdge> inEdges = new ArrayList<>();
    private final List<StreamEdge> outEdges = new ArrayList<>();

    StreamNode(int id, String name, String uid, StreamOperator<?> operator, int parallelism, int maxParallelism,
            String slotSharingGroup, ChainingStrategy chainingStrategy, String chainingSetBy,
            TypeSerializer<?> outputSerializer, KeySelector<?, ?> keySelector1, KeySelector<?, ?> keySelector2,
            TypeSerializer<?> keySerializer, boolean sink) {
        this.id = id;
        this.name = Objects.requireNonNull(name);
        this.uid = uid;
        this.operator = Objects.requireNonNull(operator);
        this.parallelism = parallelism;
        this.maxParallelism = maxParallelism;
        this.slotSharingGroup = slotSharingGroup;
        this.chainingStrategy = chainingStrategy;
        this.chainingSetBy = chainingSetBy;
        this.outputSerializer = outputSerializer;
        this.keySelector1 = keySelector1;
        this.keySelector2 = keySelector2;
        this.keySerializer = keySerializer;
        this.sink = sink;
    }

    /** Creates a node for a hand-built graph (tests, tools); the generator uses the same values. */
    public static StreamNode of(int id, String name, StreamOperator<?> operator, int parallelism, int maxParallelism) {
        ChainingStrategy strategy = operator instanceof AbstractStreamOperator<?> abs
                ? abs.getChainingStrategy() : ChainingStrategy.ALWAYS;
        return new StreamNode(id, name, null, operator, parallelism, maxParallelism, "default", strategy, null,
                null, null, null, null, false);
    }

    public int getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    /** The user's uid, or null. */
    public String getUid() {
        return uid;
    }

    public StreamOperator<?> getOperator() {
        return operator;
    }

    public int getParallelism() {
        return parallelism;
    }

    /**
     * Whether the job set this operator's parallelism itself ({@code setParallelism}, or an operator that runs at
     * parallelism 1 by nature) rather than taking the default; BATCH jobs decide only the others' parallelism.
     */
    public boolean isParallelismConfigured() {
        return parallelismConfigured;
    }

    /** Marks the parallelism as the default one, which BATCH execution may replace. */
    void setParallelismConfigured(boolean configured) {
        this.parallelismConfigured = configured;
    }

    public int getMaxParallelism() {
        return maxParallelism;
    }

    public String getSlotSharingGroup() {
        return slotSharingGroup;
    }

    public ChainingStrategy getChainingStrategy() {
        return chainingStrategy;
    }

    /** Which call set the chaining strategy ({@code disableChaining()}), or null for the operator's own. */
    public String getChainingSetBy() {
        return chainingSetBy;
    }

    public TypeSerializer<?> getOutputSerializer() {
        return outputSerializer;
    }

    public KeySelector<?, ?> getKeySelector1() {
        return keySelector1;
    }

    public KeySelector<?, ?> getKeySelector2() {
        return keySelector2;
    }

    public TypeSerializer<?> getKeySerializer() {
        return keySerializer;
    }

    public boolean isSink() {
        return sink;
    }

    public boolean isSource() {
        return inEdges.isEmpty();
    }

    void addInEdge(StreamEdge edge) {
        inEdges.add(edge);
    }

    void addOutEdge(StreamEdge edge) {
        outEdges.add(edge);
    }

    public List<StreamEdge> getInEdges() {
        return Collections.unmodifiableList(inEdges);
    }

    public List<StreamEdge> getOutEdges() {
        return Collections.unmodifiableList(outEdges);
    }

    @Override
    public String toString() {
        return name + "-" + id;
    }
}
