package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.internal.InternalListState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;

/**
 * {@link dev.runnel.api.common.state.ListState} in RocksDB. The value of a key and namespace is its
 * elements one after another, each as {@code varint length} + the element serializer's bytes:
 *
 * <pre>
 *   [len₁][element₁][len₂][element₂]...
 * </pre>
 *
 * Appends are RocksDB merges with a concatenating merge operator, so {@link #add} never reads the
 * list. Because every element carries its length, concatenated lists are valid lists (which makes
 * {@link #mergeNamespaces} a byte copy) and a snapshot can count elements without deserializing.
 * Task thread only; null elements are rejected.
 */
final class RocksDBListState<K, N, T> extends AbstractRocksDBState<K, N, List<T>>
        implements InternalListState<K, N, T> {

    private final TypeSerializer<T> elementSerializer;
    private final TypeSerializer<List<T>> listSerializer;
    private final DataOutputSerializer elementOut = new DataOutputSerializer(64);
    private final DataInputDeserializer elementIn = new DataInputDeserializer();
    /** For corrupt-data messages; built once, not per element. */
    private final String elementDescription;

    RocksDBListState(RocksDBKeyedStateBackend<K> backend, String name, ColumnFamilyHandle columnFamily,
            TypeSerializer<N> namespaceSerializer, TypeSerializer<List<T>> listSerializer,
            TypeSerializer<T> elementSerializer) {
        super(backend, name, columnFamily, namespaceSerializer);
        this.listSerializer = listSerializer;
        this.elementSerializer = elementSerializer;
        this.elementDescription = "list element of state '" + name + "'";
    }

    @Override
    public TypeSerializer<List<T>> getValueSerializer() {
        return listSerializer;
    }

    @Override
    public Iterable<T> get() throws IOException {
        List<T> list = getInternal();
        return list == null ? Collections.emptyList() : list;
    }

    @Override
    public List<T> getInternal() throws IOException {
        int length = readValue(currentKeyLength());
        return length < 0 ? null : decode(valueBuffer, 0, length);
    }

    private List<T> decode(byte[] bytes, int offset, int length) throws IOException {
        DataInputDeserializer in = valueIn;
        in.setBuffer(bytes, offset, length);
        List<T> list = new ArrayList<>();
        while (in.available() > 0) {
            int elementLength = in.readLength(elementDescription, 1);
            // Each element is read from its own slice, so a serializer cannot run into the next one.
            elementIn.setBuffer(bytes, in.arrayPosition(), elementLength);
            list.add(elementSerializer.deserialize(elementIn));
            in.skipBytes(elementLength);
        }
        return list;
    }

    @Override
    public void add(T value) throws IOException {
        requireElement(value);
        valueOut.clear();
        appendElement(value);
        mergeValue(currentKeyLength());
    }

    @Override
    public void addAll(List<T> values) throws IOException {
        if (values == null || values.isEmpty()) {
            return;
        }
        valueOut.clear();
        for (T value : values) {
            requireElement(value);
            appendElement(value);
        }
        mergeValue(currentKeyLength());
    }

    /** Replaces the list; an empty list clears it, null is rejected (as by the heap store). */
    @Override
    public void update(List<T> values) throws IOException {
        if (values == null) {
            throw new NullPointerException("ListState '" + name + "' cannot be updated to null; use clear() "
                    + "or an empty list.");
        }
        updateInternal(values);
    }

    @Override
    public void updateInternal(List<T> values) throws IOException {
        if (values == null || values.isEmpty()) {
            deleteKey(currentKeyLength());
            return;
        }
        valueOut.clear();
        for (T value : values) {
            requireElement(value);
            appendElement(value);
        }
        writeValue(currentKeyLength());
    }

    @Override
    public void mergeNamespaces(N target, Collection<N> sources) throws IOException {
        if (sources == null || sources.isEmpty()) {
            return;
        }
        valueOut.clear();
        for (N source : sources) {
            if (source == null || source.equals(target)) {
                continue;
            }
            int keyLength = namespaceKeyLength(source);
            int length = readValue(keyLength);
            if (length >= 0) {
                deleteKey(keyLength);
                valueOut.write(valueBuffer, 0, length);
            }
        }
        if (valueOut.length() > 0) {
            mergeValue(namespaceKeyLength(target));
        }
    }

    private void requireElement(T value) {
        if (value == null) {
            throw new NullPointerException("ListState '" + name + "' does not accept null elements.");
        }
    }

    private void appendElement(T value) throws IOException {
        elementOut.clear();
        elementSerializer.serialize(value, elementOut);
        valueOut.writeVarInt(elementOut.length());
        valueOut.write(elementOut.getSharedBuffer(), 0, elementOut.length());
    }

    private void mergeValue(int keyLength) throws IOException {
        try {
            db.merge(columnFamily, writeOptions, keyBuilder.buffer(), 0, keyLength,
                    valueOut.getSharedBuffer(), 0, valueOut.length());
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("append to list state", name, e);
        }
    }

    /** Counts the elements of a stored list value without deserializing them. */
    static int countElements(byte[] bytes, int offset, int length, DataInputDeserializer scratch) throws IOException {
        scratch.setBuffer(bytes, offset, length);
        int count = 0;
        while (scratch.available() > 0) {
            scratch.skipBytes(scratch.readLength("list element", 1));
            count++;
        }
        return count;
    }
}
