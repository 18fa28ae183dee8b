package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.internal.InternalKvState;
import java.io.IOException;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.ReadOptions;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteOptions;

/**
 * What every RocksDB-backed state shares: its column family, the key of the current key and
 * namespace (built in the backend's shared {@link RocksDBKeyBuilder}), and reused buffers for values,
 * so that a read or write allocates nothing but the deserialized value.
 *
 * <p>Task thread only. The state does not own the column family or the database; the backend frees
 * them on close, after which every call fails.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <V> the type of the stored value as the Internal interface sees it
 */
abstract class AbstractRocksDBState<K, N, V> implements InternalKvState<K, N, V> {

    protected final String name;
    protected final RocksDBKeyedStateBackend<K> backend;
    protected final RocksDBKeyBuilder<K> keyBuilder;
    protected final RocksDB db;
    protected final ColumnFamilyHandle columnFamily;
    protected final ReadOptions readOptions;
    protected final WriteOptions writeOptions;
    protected final TypeSerializer<N> namespaceSerializer;

    /** Value bytes read by {@link #readValue}; grown when a value does not fit. */
    protected byte[] valueBuffer = new byte[128];
    protected final DataOutputSerializer valueOut = new DataOutputSerializer(128);
    protected final DataInputDeserializer valueIn = new DataInputDeserializer();

    protected N currentNamespace;

    /** The backend's write-back cache for single-value states; null for other states or when off. */
    private final RocksDBValueCache cache;
    private final RocksDBValueCache.Owner cacheOwner;

    protected AbstractRocksDBState(RocksDBKeyedStateBackend<K> backend, String name,
            ColumnFamilyHandle columnFamily, TypeSerializer<N> namespaceSerializer) {
        this(backend, name, columnFamily, namespaceSerializer, null);
    }

    @SuppressWarnings("unchecked")
    protected AbstractRocksDBState(RocksDBKeyedStateBackend<K> backend, String name,
            ColumnFamilyHandle columnFamily, TypeSerializer<N> namespaceSerializer, RocksDBValueCache cache) {
        this.name = name;
        this.backend = backend;
        this.keyBuilder = backend.keyBuilder();
        this.db = backend.instance().db();
        this.readOptions = backend.instance().readOptions();
        this.writeOptions = backend.instance().writeOptions();
        this.columnFamily = columnFamily;
        this.namespaceSerializer = namespaceSerializer;
        this.cache = cache;
        this.cacheOwner = cache == null ? null : new RocksDBValueCache.Owner(columnFamily, name);
        if (namespaceSerializer instanceof VoidNamespaceSerializer) {
            // Key-only state needs no explicit namespace.
            this.currentNamespace = (N) VoidNamespace.INSTANCE;
        }
    }

    @Override
    public void setCurrentNamespace(N namespace) {
        this.currentNamespace = namespace;
    }

    @Override
    public TypeSerializer<K> getKeySerializer() {
        return backend.getKeySerializer();
    }

    @Override
    public TypeSerializer<N> getNamespaceSerializer() {
        return namespaceSerializer;
    }

    /** The state's name, as registered. */
    public String getName() {
        return name;
    }

    /** Builds the key of the current key and namespace; returns its length in the key buffer. */
    protected final int currentKeyLength() throws IOException {
        return namespaceKeyLength(currentNamespace());
    }

    /** Builds the key of the current key and {@code namespace}; returns its length. */
    protected final int namespaceKeyLength(N namespace) throws IOException {
        return keyBuilder.buildNamespaceKey(namespace, namespaceSerializer);
    }

    protected final N currentNamespace() {
        N namespace = currentNamespace;
        if (namespace == null) {
            throw new IllegalStateException("State '" + name + "' has no current namespace: call "
                    + "setCurrentNamespace(...) (e.g. the window) before using it.");
        }
        return namespace;
    }

    /** The owner of this state's entries in the value cache, or null when it is not cached. */
    final RocksDBValueCache.Owner cacheOwner() {
        return cacheOwner;
    }

    /**
     * Reads the value of the first {@code keyLength} bytes of the key buffer into
     * {@link #valueBuffer}; returns its length, or -1 when there is none.
     */
    protected final int readValue(int keyLength) throws IOException {
        byte[] key = keyBuilder.buffer();
        if (cache == null) {
            return readFromRocksDB(key, keyLength);
        }
        int hash = RocksDBValueCache.hash(key, keyLength);
        int slot = cache.find(cacheOwner, key, keyLength, hash);
        if (slot >= 0) {
            int length = cache.valueLength(slot);
            if (length > 0) {
                if (length > valueBuffer.length) {
                    valueBuffer = new byte[Math.max(length, valueBuffer.length * 2)];
                }
                System.arraycopy(cache.valueArray(slot), 0, valueBuffer, 0, length);
            }
            return length;
        }
        int length = readFromRocksDB(key, keyLength);
        cache.fill(cacheOwner, key, keyLength, hash, valueBuffer, length);
        return length;
    }

    private int readFromRocksDB(byte[] key, int keyLength) throws IOException {
        try {
            int length = db.get(columnFamily, readOptions, key, 0, keyLength, valueBuffer, 0, valueBuffer.length);
            if (length > valueBuffer.length) {
                // Rare: the value outgrew the buffer. Grow (with headroom) and read again.
                valueBuffer = new byte[Math.max(length, valueBuffer.length * 2)];
                length = db.get(columnFamily, readOptions, key, 0, keyLength, valueBuffer, 0, valueBuffer.length);
            }
            return length;
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("read state", name, e);
        }
    }

    /** Points {@link #valueIn} at the first {@code length} bytes of {@link #valueBuffer}. */
    protected final DataInputDeserializer valueInput(int length) {
        valueIn.setBuffer(valueBuffer, 0, length);
        return valueIn;
    }

    /** Writes the content of {@link #valueOut} under the first {@code keyLength} bytes of the key buffer. */
    protected final void writeValue(int keyLength) throws IOException {
        byte[] key = keyBuilder.buffer();
        if (cache != null && cache.write(cacheOwner, key, keyLength, RocksDBValueCache.hash(key, keyLength),
                valueOut.getSharedBuffer(), valueOut.length())) {
            return;
        }
        try {
            db.put(columnFamily, writeOptions, key, 0, keyLength, valueOut.getSharedBuffer(), 0, valueOut.length());
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("write state", name, e);
        }
    }

    /** Deletes the entry under the first {@code keyLength} bytes of the key buffer. */
    protected final void deleteKey(int keyLength) throws IOException {
        byte[] key = keyBuilder.buffer();
        if (cache != null) {
            cache.write(cacheOwner, key, keyLength, RocksDBValueCache.hash(key, keyLength), null, -1);
            return;
        }
        try {
            db.delete(columnFamily, writeOptions, key, 0, keyLength);
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("delete from state", name, e);
        }
    }

    /** Removes the current key's entry in the current namespace. */
    @Override
    public void clear() {
        try {
            deleteKey(currentKeyLength());
        } catch (IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{name=" + name + '}';
    }
}
