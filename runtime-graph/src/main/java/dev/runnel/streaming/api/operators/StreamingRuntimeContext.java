package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.TaskInfo;
import dev.runnel.api.common.accumulators.Accumulator;
import dev.runnel.api.common.functions.RuntimeContext;
import dev.runnel.api.common.state.AggregatingState;
import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import java.io.Serializable;

/**
 * The {@link RuntimeContext} of functions inside an operator: keyed state in the {@link VoidNamespace}
 * of the current key, the operator's metric group, the task's accumulators. Task thread only.
 */
public final class StreamingRuntimeContext implements RuntimeContext, dev.runnel.api.common.state.KeyedStateStore {

    private final AbstractStreamOperator<?> operator;
    private final StreamTaskContext task;
    private final MetricGroup metricGroup;

    StreamingRuntimeContext(AbstractStreamOperator<?> operator, StreamTaskContext task, String operatorName) {
        this.operator = operator;
        this.task = task;
        this.metricGroup = task.getMetricGroup().addGroup(operatorName);
    }

    @Override
    public TaskInfo getTaskInfo() {
        return task.getTaskInfo();
    }

    @Override
    public ExecutionConfig getExecutionConfig() {
        return task.getExecutionConfig();
    }

    @Override
    public MetricGroup getMetricGroup() {
        return metricGroup;
    }

    @Override
    public <V, A extends Serializable> void addAccumulator(String name, Accumulator<V, A> accumulator) {
        if (task.getAccumulators().putIfAbsent(name, accumulator) != null) {
            throw new UnsupportedOperationException("An accumulator named '" + name + "' is already registered in "
                    + task.getTaskInfo().getTaskNameWithSubtasks() + "; use getAccumulator(name) to reuse it.");
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <V, A extends Serializable> Accumulator<V, A> getAccumulator(String name) {
        return (Accumulator<V, A>) task.getAccumulators().get(name);
    }

    @Override
    public <T> ValueState<T> getState(ValueStateDescriptor<T> stateProperties) {
        return keyedState(stateProperties);
    }

    @Override
    public <T> ListState<T> getListState(ListStateDescriptor<T> stateProperties) {
        return keyedState(stateProperties);
    }

    @Override
    public <T> ReducingState<T> getReducingState(ReducingStateDescriptor<T> stateProperties) {
        return keyedState(stateProperties);
    }

    @Override
    public <IN, ACC, OUT> AggregatingState<IN, OUT> getAggregatingState(
            AggregatingStateDescriptor<IN, ACC, OUT> stateProperties) {
        return keyedState(stateProperties);
    }

    @Override
    public <UK, UV> MapState<UK, UV> getMapState(MapStateDescriptor<UK, UV> stateProperties) {
        return keyedState(stateProperties);
    }

    private <S extends State> S keyedState(StateDescriptor<S, ?> descriptor) {
        if (operator.getKeyedStateBackend() == null) {
            throw new UnsupportedOperationException("Keyed state '" + descriptor.getName() + "' can only be used on a "
                    + "keyed stream, i.e. in a function applied after keyBy(); operator '"
                    + operator.getOperatorName() + "' is not keyed.");
        }
        try {
            return operator.getPartitionedState(VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE, descriptor);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Cannot create keyed state '" + descriptor.getName() + "' in operator '"
                    + operator.getOperatorName() + "': " + e.getMessage(), e);
        }
    }
}
