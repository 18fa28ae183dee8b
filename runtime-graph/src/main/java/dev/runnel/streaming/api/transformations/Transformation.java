package dev.runnel.streaming.api.transformations;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.OutputTypeExtractionException;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.streaming.api.operators.ChainingStrategy;
import java.util.List;
import java.util.Objects;

/**
 * One step of a user's program as the DataStream API records it: what it does, what it reads, and
 * the settings made on it ({@code name}, {@code uid}, {@code setParallelism}, ...). The stream graph
 * is generated from these when the job is executed or explained, so settings made after an operator
 * was connected still count.
 *
 * <p>Built and mutated on the user's thread while the program is assembled; not thread-safe.
 *
 * @param <T> the type of the records this step produces
 */
public abstract class Transformation<T> {

    /** Parallelism not set on the operator: the environment's default applies. */
    public static final int DEFAULT_PARALLELISM = -1;

    private final int id;
    private String name;
    private String uid;
    private TypeInformation<T> outputType;
    private InvalidTypesException missingTypeReason;
    private int parallelism;
    private int maxParallelism = -1;
    private String slotSharingGroup;
    private ChainingStrategy chainingStrategy;
    private String chainingSetBy;

    protected Transformation(int id, String name, TypeInformation<T> outputType, int parallelism) {
        this.id = id;
        this.name = Objects.requireNonNull(name, "name");
        this.outputType = outputType;
        this.parallelism = parallelism;
    }

    public int getId() {
        return id;
    }

    public String getName() {
        return name;
    }

    public void setName(String name) {
        if (name == null || name.isBlank()) {
            throw new IllegalArgumentException("An operator name must not be blank");
        }
        this.name = name;
    }

    public String getUid() {
        return uid;
    }

    public void setUid(String uid) {
        if (uid == null || uid.isBlank()) {
            throw new IllegalArgumentException("A uid must not be blank (operator '" + name + "')");
        }
        this.uid = uid;
    }

    /** Whether the output type is known (a lambda's may not be, until {@code returns(...)}). */
    public boolean hasOutputType() {
        return outputType != null;
    }

    /**
     * The output type; fails, naming this operator, when it could not be determined and no
     * {@code returns(...)} supplied it.
     */
    public TypeInformation<T> getOutputType() {
        if (outputType == null) {
            throw new InvalidTypesException(missingTypeProblem() + ". Add .returns(...) after '" + name + "', for example"
                    + " .returns(Types.TUPLE(Types.STRING, Types.INT)) or .returns(new TypeHint<Tuple2<String, Integer>>() {}),"
                    + " or implement the function as a class that names its type arguments.", missingTypeReason);
        }
        return outputType;
    }

    /** What failed and why, in one sentence without its period; the fix is added once, by the caller. */
    private String missingTypeProblem() {
        if (missingTypeReason instanceof OutputTypeExtractionException extraction) {
            return extraction.problemFor("operator '" + name + "'");
        }
        if (missingTypeReason == null) {
            return "The output type of operator '" + name + "' was not given";
        }
        String reason = missingTypeReason.getMessage();
        return "The output type of operator '" + name + "' could not be determined: "
                + (reason.endsWith(".") ? reason.substring(0, reason.length() - 1) : reason);
    }

    public void setOutputType(TypeInformation<T> outputType) {
        this.outputType = Objects.requireNonNull(outputType, "outputType");
        this.missingTypeReason = null;
    }

    /** Records why the output type is unknown; {@link #getOutputType()} will report it. */
    public void setMissingType(InvalidTypesException reason) {
        this.outputType = null;
        this.missingTypeReason = reason;
    }

    public int getParallelism() {
        return parallelism;
    }

    public void setParallelism(int parallelism) {
        if (parallelism <= 0 && parallelism != DEFAULT_PARALLELISM) {
            throw new IllegalArgumentException("The parallelism of operator '" + name + "' must be at least 1, was "
                    + parallelism);
        }
        this.parallelism = parallelism;
    }

    /** The max parallelism set on this operator, or -1. */
    public int getMaxParallelism() {
        return maxParallelism;
    }

    /**
     * Sets how many key groups this operator's keyed state is split into, which caps its parallelism.
     * Checked here, at the call, because a keyed input edge applies it as soon as the graph is built,
     * where the error could no longer name the operator.
     *
     * @throws IllegalArgumentException naming the operator if the value is outside 1 to 32768
     */
    public void setMaxParallelism(int maxParallelism) {
        if (maxParallelism < 1 || maxParallelism > KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM) {
            throw new IllegalArgumentException("The max parallelism of operator '" + name + "' is " + maxParallelism
                    + ", outside the allowed range 1 to " + KeyGroupRangeAssignment.UPPER_BOUND_MAX_PARALLELISM
                    + " (the number of key groups its keyed state can be split into). Pass a value in that range to"
                    + " setMaxParallelism(...), or leave it unset to let Runnel derive it from the parallelism.");
        }
        this.maxParallelism = maxParallelism;
    }

    public String getSlotSharingGroup() {
        return slotSharingGroup;
    }

    public void setSlotSharingGroup(String slotSharingGroup) {
        this.slotSharingGroup = slotSharingGroup;
    }

    /** The chaining strategy the user forced, or null for the operator's own. */
    public ChainingStrategy getChainingStrategy() {
        return chainingStrategy;
    }

    /** What set the chaining strategy ({@code disableChaining()}, {@code startNewChain()}), for the plan. */
    public String getChainingSetBy() {
        return chainingSetBy;
    }

    public void setChainingStrategy(ChainingStrategy strategy, String setBy) {
        this.chainingStrategy = strategy;
        this.chainingSetBy = setBy;
    }

    /** The steps this one reads from. */
    public abstract List<Transformation<?>> getInputs();

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{id=" + id + ", name='" + name + "'}";
    }
}
