package dev.runnel.runtime.jobgraph;

import java.io.Serializable;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;

/**
 * A task of the job: a chain of operators that run together in one thread per subtask, with the
 * edges into its head and out of any of its operators.
 */
public final class JobVertex implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String id;
    private final String name;
    private int parallelism;
    private final int maxParallelism;
    private final String slotSharingGroup;
    private final boolean parallelismConfigured;
    private final List<ChainedOperator> operators = new ArrayList<>();
    private final List<JobEdge> inputs = new ArrayList<>();
    private final List<JobEdge> outputs = new ArrayList<>();

    /** A vertex whose parallelism the job set (hand-built graphs, tools). */
    public JobVertex(String id, String name, int parallelism, int maxParallelism, String slotSharingGroup) {
        this(id, name, parallelism, maxParallelism, slotSharingGroup, true);
    }

    /**
     * @param parallelismConfigured whether the job set the parallelism (else it is the default, and BATCH
     *     execution may decide it from the data; see {@link #isParallelismConfigured()})
     */
    public JobVertex(String id, String name, int parallelism, int maxParallelism, String slotSharingGroup,
            boolean parallelismConfigured) {
        this.parallelismConfigured = parallelismConfigured;
        this.id = Objects.requireNonNull(id);
        this.name = Objects.requireNonNull(name);
        this.parallelism = parallelism;
        this.maxParallelism = maxParallelism;
        this.slotSharingGroup = slotSharingGroup;
    }

    public String getId() {
        return id;
    }

    /** The chain's name: its operators' names joined with {@code " -> "}. */
    public String getName() {
        return name;
    }

    public int getParallelism() {
        return parallelism;
    }

    /**
     * Whether the job set this chain's parallelism (on one of its operators, or by an operator that runs at
     * parallelism 1 by nature); false when it is the default, which a BATCH job's adaptive parallelism replaces
     * by what the vertex's input calls for.
     */
    public boolean isParallelismConfigured() {
        return parallelismConfigured;
    }

    /**
     * Changes the parallelism; {@link JobGraph#rescale} calls it while no task of the graph runs, and the
     * adaptive BATCH scheduling before the vertex's first subtask deploys.
     */
    void setParallelism(int parallelism) {
        this.parallelism = parallelism;
    }

    public int getMaxParallelism() {
        return maxParallelism;
    }

    public String getSlotSharingGroup() {
        return slotSharingGroup;
    }

    public void addOperator(ChainedOperator operator) {
        operators.add(operator);
    }

    /** The chained operators, head first. */
    public List<ChainedOperator> getOperators() {
        return Collections.unmodifiableList(operators);
    }

    public ChainedOperator getHead() {
        return operators.get(0);
    }

    public void addInput(JobEdge edge) {
        inputs.add(edge);
    }

    public void addOutput(JobEdge edge) {
        outputs.add(edge);
    }

    public List<JobEdge> getInputs() {
        return Collections.unmodifiableList(inputs);
    }

    public List<JobEdge> getOutputs() {
        return Collections.unmodifiableList(outputs);
    }

    /** The number of distinct inputs of the head operator (0 for sources, 1, or 2). */
    public int getNumberOfInputs() {
        return (int) inputs.stream().mapToInt(JobEdge::getTargetInput).distinct().count();
    }

    @Override
    public String toString() {
        return name + " (" + parallelism + ")";
    }
}
