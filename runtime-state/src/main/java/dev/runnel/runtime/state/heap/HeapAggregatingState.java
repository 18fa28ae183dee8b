package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.runtime.state.internal.InternalAggregatingState;

/**
 * Heap {@link dev.runnel.api.common.state.AggregatingState}: stores the accumulator; {@link #get()}
 * returns the aggregate function's result for it, or null for a key without one. As in Flink's heap
 * backend, adding null clears the state, and an accumulator of null removes the entry.
 *
 * <p>Task thread only.
 */
final class HeapAggregatingState<K, N, IN, ACC, OUT> extends AbstractHeapMergingState<K, N, ACC>
        implements InternalAggregatingState<K, N, IN, ACC, OUT> {

    private final AggregateFunction<IN, ACC, OUT> aggregateFunction;

    HeapAggregatingState(StateTable<K, N, ACC> table, N defaultNamespace,
            AggregateFunction<IN, ACC, OUT> aggregateFunction) {
        super(table, defaultNamespace);
        this.aggregateFunction = aggregateFunction;
    }

    @Override
    public OUT get() {
        ACC accumulator = table.get(namespace, namespaceHash);
        return accumulator == null ? null : aggregateFunction.getResult(accumulator);
    }

    @Override
    public void add(IN value) {
        if (value == null) {
            clear();
            return;
        }
        StateMap.Entry<K, N, ACC> entry = table.entry(namespace, namespaceHash);
        ACC accumulator = aggregateFunction.add(value,
                entry == null ? aggregateFunction.createAccumulator() : entry.state);
        if (accumulator == null) {
            clear();
        } else if (entry != null) {
            entry.state = accumulator;
        } else {
            table.insert(namespace, namespaceHash, accumulator);
        }
    }

    @Override
    ACC mergeState(ACC a, ACC b) {
        return aggregateFunction.merge(a, b);
    }
}
