package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.internal.InternalAggregatingState;
import org.rocksdb.ColumnFamilyHandle;

/**
 * {@link dev.runnel.api.common.state.AggregatingState} in RocksDB: stores the accumulator;
 * {@code add} reads it (or creates one), folds the value in and writes it back; {@code get} returns
 * the function's result for it, or null when there is none. Adding null clears the entry, as Flink
 * does. Task thread only.
 */
final class RocksDBAggregatingState<K, N, IN, ACC, OUT> extends AbstractRocksDBMergingState<K, N, IN, ACC, OUT>
        implements InternalAggregatingState<K, N, IN, ACC, OUT> {

    private final AggregateFunction<IN, ACC, OUT> aggregateFunction;

    RocksDBAggregatingState(RocksDBKeyedStateBackend<K> backend, String name, ColumnFamilyHandle columnFamily,
            TypeSerializer<N> namespaceSerializer, TypeSerializer<ACC> accumulatorSerializer,
            AggregateFunction<IN, ACC, OUT> aggregateFunction) {
        super(backend, name, columnFamily, namespaceSerializer, accumulatorSerializer);
        this.aggregateFunction = aggregateFunction;
    }

    @Override
    protected ACC combine(ACC first, ACC second) throws Exception {
        return aggregateFunction.merge(first, second);
    }

    @Override
    public OUT get() throws Exception {
        ACC accumulator = getInternal();
        return accumulator == null ? null : aggregateFunction.getResult(accumulator);
    }

    @Override
    public void add(IN value) throws Exception {
        if (value == null) {
            clear();
            return;
        }
        ACC accumulator = readStored(currentKeyLength());
        if (accumulator == null) {
            accumulator = aggregateFunction.createAccumulator();
        }
        accumulator = aggregateFunction.add(value, accumulator);
        writeStored(currentKeyLength(), accumulator);
    }
}
