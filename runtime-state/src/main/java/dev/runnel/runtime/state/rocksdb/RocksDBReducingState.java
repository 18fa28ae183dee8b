package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.internal.InternalReducingState;
import org.rocksdb.ColumnFamilyHandle;

/**
 * {@link dev.runnel.api.common.state.ReducingState} in RocksDB: stores the reduced value; {@code add}
 * reads it, reduces with the descriptor's function and writes it back. Adding null clears the entry,
 * as Flink does. Task thread only.
 */
final class RocksDBReducingState<K, N, T> extends AbstractRocksDBMergingState<K, N, T, T, T>
        implements InternalReducingState<K, N, T> {

    private final ReduceFunction<T> reduceFunction;

    RocksDBReducingState(RocksDBKeyedStateBackend<K> backend, String name, ColumnFamilyHandle columnFamily,
            TypeSerializer<N> namespaceSerializer, TypeSerializer<T> valueSerializer,
            ReduceFunction<T> reduceFunction) {
        super(backend, name, columnFamily, namespaceSerializer, valueSerializer);
        this.reduceFunction = reduceFunction;
    }

    @Override
    protected T combine(T first, T second) throws Exception {
        return reduceFunction.reduce(first, second);
    }

    @Override
    public T get() throws Exception {
        return getInternal();
    }

    @Override
    public void add(T value) throws Exception {
        if (value == null) {
            clear();
            return;
        }
        T existing = readStored(currentKeyLength());
        T result = existing == null ? value : reduceFunction.reduce(existing, value);
        writeStored(currentKeyLength(), result);
    }
}
