package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.typeinfo.TypeHint;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.operators.ChainingStrategy;
import dev.runnel.streaming.api.transformations.SideOutputTransformation;
import dev.runnel.streaming.api.transformations.Transformation;
import dev.runnel.util.OutputTag;
import java.util.Objects;

/**
 * The stream an operator produces, with the operator's settings: name, uid, parallelism, chaining,
 * slot sharing group, output type, and its side outputs.
 */
public class SingleOutputStreamOperator<T> extends DataStream<T> {

    public SingleOutputStreamOperator(StreamExecutionEnvironment environment, Transformation<T> transformation) {
        super(environment, transformation);
    }

    public String getName() {
        return transformation.getName();
    }

    public SingleOutputStreamOperator<T> name(String name) {
        transformation.setName(name);
        return this;
    }

    /** A stable id for the operator's state, unique in the job. */
    public SingleOutputStreamOperator<T> uid(String uid) {
        transformation.setUid(uid);
        return this;
    }

    /** Whether the operator must run as one subtask (e.g. {@code windowAll}). */
    private boolean nonParallel;

    public SingleOutputStreamOperator<T> setParallelism(int parallelism) {
        if (nonParallel && parallelism != 1) {
            throw new IllegalArgumentException("The parallelism of non parallel operator '" + getName() + "' must be 1.");
        }
        transformation.setParallelism(parallelism);
        return this;
    }

    public SingleOutputStreamOperator<T> setMaxParallelism(int maxParallelism) {
        if (nonParallel && maxParallelism != 1) {
            throw new IllegalArgumentException("The maximum parallelism of non parallel operator '" + getName()
                    + "' must be 1.");
        }
        transformation.setMaxParallelism(maxParallelism);
        return this;
    }

    /** Runs the operator as one subtask (parallelism and max parallelism 1), and keeps it so. */
    protected SingleOutputStreamOperator<T> forceNonParallel() {
        transformation.setParallelism(1);
        transformation.setMaxParallelism(1);
        nonParallel = true;
        return this;
    }

    /** Keeps this operator out of any chain: it becomes a task of its own. */
    public SingleOutputStreamOperator<T> disableChaining() {
        transformation.setChainingStrategy(ChainingStrategy.NEVER, "disableChaining()");
        return this;
    }

    /** Starts a new chain here: this operator is not chained to its predecessor. */
    public SingleOutputStreamOperator<T> startNewChain() {
        transformation.setChainingStrategy(ChainingStrategy.HEAD, "startNewChain()");
        return this;
    }

    public SingleOutputStreamOperator<T> slotSharingGroup(String slotSharingGroup) {
        transformation.setSlotSharingGroup(Objects.requireNonNull(slotSharingGroup, "slotSharingGroup"));
        return this;
    }

    /** Declares the output type where it cannot be extracted (lambdas returning generic types). */
    public SingleOutputStreamOperator<T> returns(TypeInformation<T> typeInfo) {
        transformation.setOutputType(Objects.requireNonNull(typeInfo, "typeInfo"));
        return this;
    }

    public SingleOutputStreamOperator<T> returns(TypeHint<T> typeHint) {
        return returns(TypeInformation.of(Objects.requireNonNull(typeHint, "typeHint")));
    }

    public SingleOutputStreamOperator<T> returns(Class<T> typeClass) {
        return returns(TypeInformation.of(Objects.requireNonNull(typeClass, "typeClass")));
    }

    /** The records this operator sent to side output {@code tag}. */
    public <X> DataStream<X> getSideOutput(OutputTag<X> tag) {
        Objects.requireNonNull(tag, "tag");
        return new DataStream<>(environment, new SideOutputTransformation<>(environment.nextId(), transformation, tag));
    }
}
