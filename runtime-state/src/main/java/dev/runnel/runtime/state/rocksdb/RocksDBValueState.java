package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.internal.InternalValueState;
import java.io.IOException;
import org.rocksdb.ColumnFamilyHandle;

/**
 * {@link dev.runnel.api.common.state.ValueState} in RocksDB: one entry per key and namespace, the
 * value serialized with the descriptor's serializer. A read is one point lookup into a reused
 * buffer; a write is one put without write-ahead log. Task thread only.
 */
final class RocksDBValueState<K, N, T> extends AbstractRocksDBState<K, N, T> implements InternalValueState<K, N, T> {

    private final TypeSerializer<T> valueSerializer;

    RocksDBValueState(RocksDBKeyedStateBackend<K> backend, String name, ColumnFamilyHandle columnFamily,
            TypeSerializer<N> namespaceSerializer, TypeSerializer<T> valueSerializer) {
        super(backend, name, columnFamily, namespaceSerializer, backend.valueCache());
        this.valueSerializer = valueSerializer;
    }

    @Override
    public TypeSerializer<T> getValueSerializer() {
        return valueSerializer;
    }

    @Override
    public T value() throws IOException {
        int length = readValue(currentKeyLength());
        return length < 0 ? null : valueSerializer.deserialize(valueInput(length));
    }

    @Override
    public void update(T value) throws IOException {
        if (value == null) {
            deleteKey(currentKeyLength());
            return;
        }
        valueOut.clear();
        valueSerializer.serialize(value, valueOut);
        writeValue(currentKeyLength());
    }
}
