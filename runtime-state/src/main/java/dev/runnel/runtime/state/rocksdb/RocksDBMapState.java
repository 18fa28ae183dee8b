package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.internal.InternalMapState;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.function.Function;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;

/**
 * {@link dev.runnel.api.common.state.MapState} in RocksDB: one RocksDB entry per user key.
 *
 * <pre>
 *   key   = [key group][key][namespace][user key]
 *   value = [varint length of the user key][hasValue: 0 | 1][user value, when hasValue]
 * </pre>
 *
 * Null user values are kept (hasValue 0), so {@link #contains} tells them from absent keys. The
 * length of the user key in the value lets a snapshot split a RocksDB key into key-and-namespace and
 * user key without the serializers (a restored map may be snapshotted before its operator asks for
 * it again).
 *
 * <p>Iteration is in the byte order of the serialized user keys, by prefix seek; see
 * {@link RocksDBMapIterator} for how it avoids holding native iterators. Task thread only.
 */
final class RocksDBMapState<K, N, UK, UV> extends AbstractRocksDBState<K, N, Map<UK, UV>>
        implements InternalMapState<K, N, UK, UV> {

    private final TypeSerializer<UK> userKeySerializer;
    private final TypeSerializer<UV> userValueSerializer;
    private final TypeSerializer<Map<UK, UV>> mapSerializer;

    RocksDBMapState(RocksDBKeyedStateBackend<K> backend, String name, ColumnFamilyHandle columnFamily,
            TypeSerializer<N> namespaceSerializer, TypeSerializer<Map<UK, UV>> mapSerializer,
            TypeSerializer<UK> userKeySerializer, TypeSerializer<UV> userValueSerializer) {
        super(backend, name, columnFamily, namespaceSerializer);
        this.mapSerializer = mapSerializer;
        this.userKeySerializer = userKeySerializer;
        this.userValueSerializer = userValueSerializer;
    }

    @Override
    public TypeSerializer<Map<UK, UV>> getValueSerializer() {
        return mapSerializer;
    }

    private int userKeyLength(UK userKey) throws IOException {
        if (userKey == null) {
            throw new NullPointerException("MapState '" + name + "' does not accept null keys.");
        }
        return keyBuilder.buildUserKey(currentNamespace(), namespaceSerializer, userKey, userKeySerializer);
    }

    @Override
    public UV get(UK userKey) throws Exception {
        int length = readValue(userKeyLength(userKey));
        return length < 0 ? null : decodeValue(valueInput(length), userValueSerializer);
    }

    @Override
    public boolean contains(UK userKey) throws Exception {
        return readValue(userKeyLength(userKey)) >= 0;
    }

    @Override
    public void put(UK userKey, UV userValue) throws Exception {
        int keyLength = userKeyLength(userKey);
        encodeValue(valueOut, keyLength - keyBuilder.namespaceEnd(), userValue, userValueSerializer);
        writeValue(keyLength);
    }

    @Override
    public void putAll(Map<UK, UV> map) throws Exception {
        if (map == null) {
            return;
        }
        for (Map.Entry<UK, UV> entry : map.entrySet()) {
            put(entry.getKey(), entry.getValue());
        }
    }

    @Override
    public void remove(UK userKey) throws Exception {
        deleteKey(userKeyLength(userKey));
    }

    @Override
    public boolean isEmpty() throws Exception {
        return !newIterator(entry -> entry).hasNext();
    }

    @Override
    public Iterable<Map.Entry<UK, UV>> entries() {
        return () -> newIterator(entry -> entry);
    }

    @Override
    public Iterable<UK> keys() {
        return () -> newIterator(Map.Entry::getKey);
    }

    @Override
    public Iterable<UV> values() {
        return () -> newIterator(Map.Entry::getValue);
    }

    @Override
    public Iterator<Map.Entry<UK, UV>> iterator() {
        return newIterator(entry -> entry);
    }

    private <R> Iterator<R> newIterator(Function<Map.Entry<UK, UV>, R> view) {
        try {
            return new RocksDBMapIterator<>(this, currentPrefix(), view);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** A copy of the key prefix (key group, key, namespace) of the current map. */
    private byte[] currentPrefix() throws IOException {
        int prefixLength = currentKeyLength();
        return Arrays.copyOf(keyBuilder.buffer(), prefixLength);
    }

    @Override
    public void clear() {
        try (WriteBatch batch = new WriteBatch()) {
            RocksDBMapIterator<UK, UV, ?> entries = new RocksDBMapIterator<>(this, currentPrefix(), entry -> entry);
            while (entries.hasNext()) {
                batch.delete(columnFamily, entries.nextRawKey());
            }
            if (batch.count() > 0) {
                db.write(writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked("clear map state", name, e);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** The whole map of the current key and namespace, in key order, or null when it is empty. */
    public Map<UK, UV> getInternal() {
        Map<UK, UV> result = new LinkedHashMap<>();
        for (Map.Entry<UK, UV> entry : entries()) {
            result.put(entry.getKey(), entry.getValue());
        }
        return result.isEmpty() ? null : result;
    }

    /** Replaces the map of the current key and namespace ({@code null} or empty clears it). */
    public void updateInternal(Map<UK, UV> map) throws Exception {
        clear();
        putAll(map);
    }

    // ------------------------------------------------------------------ used by the iterator

    UK deserializeUserKey(byte[] rocksKey, int prefixLength, DataInputDeserializer in) throws IOException {
        in.setBuffer(rocksKey, prefixLength, rocksKey.length - prefixLength);
        return userKeySerializer.deserialize(in);
    }

    UV deserializeUserValue(byte[] rocksValue, DataInputDeserializer in) throws IOException {
        in.setBuffer(rocksValue, 0, rocksValue.length);
        return decodeValue(in, userValueSerializer);
    }

    void putRaw(byte[] rocksKey, UV userValue, int userKeyLength) throws IOException {
        encodeValue(valueOut, userKeyLength, userValue, userValueSerializer);
        try {
            db.put(columnFamily, writeOptions, rocksKey, 0, rocksKey.length,
                    valueOut.getSharedBuffer(), 0, valueOut.length());
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("write state", name, e);
        }
    }

    void deleteRaw(byte[] rocksKey) throws IOException {
        try {
            db.delete(columnFamily, writeOptions, rocksKey);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("delete from state", name, e);
        }
    }

    // ------------------------------------------------------------------ value layout

    static <UV> void encodeValue(DataOutputSerializer out, int userKeyLength, UV userValue,
            TypeSerializer<UV> serializer) throws IOException {
        out.clear();
        out.writeVarInt(userKeyLength);
        if (userValue == null) {
            out.writeBoolean(false);
        } else {
            out.writeBoolean(true);
            serializer.serialize(userValue, out);
        }
    }

    static <UV> UV decodeValue(DataInputDeserializer in, TypeSerializer<UV> serializer) throws IOException {
        in.readVarInt();
        return in.readBoolean() ? serializer.deserialize(in) : null;
    }

    /** The user-key length a stored map value starts with. */
    static int userKeyLengthOf(DataInputDeserializer in) throws IOException {
        return in.readVarInt();
    }
}
