package dev.runnel.api.common.functions;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.api.common.accumulators.DoubleCounter;
import dev.runnel.api.common.accumulators.Histogram;
import dev.runnel.api.common.accumulators.IntCounter;
import dev.runnel.api.common.accumulators.LongCounter;
import dev.runnel.api.common.state.AggregatingState;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.metrics.MetricGroup;
import java.io.Serializable;
import java.util.Collections;
import java.util.Map;
import java.util.function.Supplier;

/**
 * What a rich function can see of the subtask it runs in: its index and parallelism, keyed state
 * (only after {@code keyBy}), metrics and accumulators. Task thread only.
 */
public interface RuntimeContext {

    TaskInfo getTaskInfo();

    default int getIndexOfThisSubtask() {
        return getTaskInfo().getIndexOfThisSubtask();
    }

    default int getNumberOfParallelSubtasks() {
        return getTaskInfo().getNumberOfParallelSubtasks();
    }

    default int getMaxNumberOfParallelSubtasks() {
        return getTaskInfo().getMaxNumberOfParallelSubtasks();
    }

    default String getTaskName() {
        return getTaskInfo().getTaskName();
    }

    /**
     * The job's execution config as the job set it, including the object given to
     * {@link ExecutionConfig#setGlobalJobParameters}.
     */
    ExecutionConfig getExecutionConfig();

    /**
     * The global job parameters as a read-only map: {@code toMap()} of the object given to
     * {@link ExecutionConfig#setGlobalJobParameters} (empty if none was set). Flink 1.19's way to read
     * them without going through the execution config.
     */
    default Map<String, String> getGlobalJobParameters() {
        return Collections.unmodifiableMap(getExecutionConfig().getGlobalJobParameters().toMap());
    }

    MetricGroup getMetricGroup();

    /** Registers an accumulator; its merged result is in the job's result under {@code name}. */
    <V, A extends Serializable> void addAccumulator(String name, Accumulator<V, A> accumulator);

    /** The accumulator registered under {@code name} in this subtask, or null. */
    <V, A extends Serializable> Accumulator<V, A> getAccumulator(String name);

    /** The {@link IntCounter} named {@code name} in this subtask, registered on first use. */
    default IntCounter getIntCounter(String name) {
        return accumulatorOfType(name, IntCounter.class, IntCounter::new);
    }

    /** The {@link LongCounter} named {@code name} in this subtask, registered on first use. */
    default LongCounter getLongCounter(String name) {
        return accumulatorOfType(name, LongCounter.class, LongCounter::new);
    }

    /** The {@link DoubleCounter} named {@code name} in this subtask, registered on first use. */
    default DoubleCounter getDoubleCounter(String name) {
        return accumulatorOfType(name, DoubleCounter.class, DoubleCounter::new);
    }

    /** The {@link Histogram} named {@code name} in this subtask, registered on first use. */
    default Histogram getHistogram(String name) {
        return accumulatorOfType(name, Histogram.class, Histogram::new);
    }

    /**
     * The accumulator named {@code name}, created with {@code create} and registered if there is none
     * yet; fails naming both types if one of another type is registered under that name.
     */
    @SuppressWarnings({"unchecked", "rawtypes"})
    private <A extends Accumulator<?, ?>> A accumulatorOfType(String name, Class<A> type, Supplier<A> create) {
        Accumulator<?, ?> existing = getAccumulator(name);
        if (existing == null) {
            A created = create.get();
            addAccumulator(name, (Accumulator) created);
            return created;
        }
        if (!type.isInstance(existing)) {
            throw new UnsupportedOperationException("The accumulator '" + name + "' is a "
                    + existing.getClass().getName() + ", not a " + type.getName()
                    + "; use another name or the accessor of its type.");
        }
        return type.cast(existing);
    }

    /** Keyed value state; only in functions applied to a keyed stream. */
    <T> ValueState<T> getState(ValueStateDescriptor<T> stateProperties);

    <T> ListState<T> getListState(ListStateDescriptor<T> stateProperties);

    <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> stateProperties);

    <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(
            AggregatingStateDescriptor<IN, ACC, OUT> stateProperties);

    <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> stateProperties);
}
