package dev.runnel.api.common.functions;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
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

    ExecutionConfig getExecutionConfig();

    MetricGroup getMetricGroup();

    /** Registers an accumulator; its merged result is in the job's result under {@code name}. */
    <V, A extends Serializable> void addAccumulator(String name, Accumulator<V, A> accumulator);

    /** The accumulator registered under {@code name} in this subtask, or null. */
    <V, A extends Serializable> Accumulator<V, A> getAccumulator(String name);

    default IntCounter getIntCounter(String name) {
        Accumulator<Integer, Integer> existing = getAccumulator(name);
        if (existing == null) {
            IntCounter counter = new IntCounter();
            addAccumulator(name, counter);
            return counter;
        }
        return (IntCounter) existing;
    }

    default LongCounter getLongCounter(String name) {
        Accumulator<Long, Long> existing = getAccumulator(name);
        if (existing == null) {
            LongCounter counter = new LongCounter();
            addAccumulator(name, counter);
            return counter;
        }
        return (LongCounter) existing;
    }

    /** Keyed value state; only in functions applied to a keyed stream. */
    <T> ValueState<T> getState(ValueStateDescriptor<T> stateProperties);

    <T> ListState<T> getListState(ListStateDescriptor<T> stateProperties);

    <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> stateProperties);

    <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(
            AggregatingStateDescriptor<IN, ACC, OUT> stateProperties);

    <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> stateProperties);
}
