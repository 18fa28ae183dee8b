package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.internal.InternalMergingState;
import java.util.Collection;
import org.rocksdb.ColumnFamilyHandle;

/**
 * Reducing and aggregating state in RocksDB: one stored value per key and namespace (the reduced
 * value or the accumulator) that {@code add} reads, combines and writes back.
 *
 * <p>The key is rebuilt after every call into user code (reduce or aggregate functions), because
 * such code may use other states, which share the backend's key buffer. Task thread only.
 *
 * @param <IN> the type of added values
 * @param <SV> the stored value type
 * @param <OUT> the type {@code get()} returns
 */
abstract class AbstractRocksDBMergingState<K, N, IN, SV, OUT> extends AbstractRocksDBState<K, N, SV>
        implements InternalMergingState<K, N, IN, SV, OUT> {

    protected final TypeSerializer<SV> valueSerializer;

    protected AbstractRocksDBMergingState(RocksDBKeyedStateBackend<K> backend, String name,
            ColumnFamilyHandle columnFamily, TypeSerializer<N> namespaceSerializer,
            TypeSerializer<SV> valueSerializer) {
        super(backend, name, columnFamily, namespaceSerializer, backend.valueCache());
        this.valueSerializer = valueSerializer;
    }

    /** Combines two stored values (user code). */
    protected abstract SV combine(SV first, SV second) throws Exception;

    @Override
    public TypeSerializer<SV> getValueSerializer() {
        return valueSerializer;
    }

    @Override
    public SV getInternal() throws Exception {
        return readStored(currentKeyLength());
    }

    @Override
    public void updateInternal(SV value) throws Exception {
        if (value == null) {
            deleteKey(currentKeyLength());
        } else {
            writeStored(currentKeyLength(), value);
        }
    }

    /** The stored value under the first {@code keyLength} key bytes, or null. */
    protected final SV readStored(int keyLength) throws Exception {
        int length = readValue(keyLength);
        return length < 0 ? null : valueSerializer.deserialize(valueInput(length));
    }

    /** Writes {@code value}; a null value (e.g. a TTL merge of expired values) deletes the entry. */
    protected final void writeStored(int keyLength, SV value) throws Exception {
        if (value == null) {
            deleteKey(keyLength);
            return;
        }
        valueOut.clear();
        valueSerializer.serialize(value, valueOut);
        writeValue(keyLength);
    }

    @Override
    public void mergeNamespaces(N target, Collection<N> sources) throws Exception {
        if (sources == null || sources.isEmpty()) {
            return;
        }
        SV merged = null;
        for (N source : sources) {
            if (source == null || source.equals(target)) {
                continue;
            }
            int keyLength = namespaceKeyLength(source);
            SV value = readStored(keyLength);
            if (value != null) {
                deleteKey(keyLength);
                // A null combination means "no value" (e.g. both expired): start over from the next.
                merged = merged == null ? value : combine(merged, value);
            }
        }
        if (merged != null) {
            SV existing = readStored(namespaceKeyLength(target));
            SV result = existing == null ? merged : combine(existing, merged);
            writeStored(namespaceKeyLength(target), result);
        }
    }
}
