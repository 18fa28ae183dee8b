package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.Arrays;
import java.util.Iterator;
import java.util.NoSuchElementException;
import java.util.Set;
import java.util.Spliterator;
import java.util.Spliterators;
import java.util.stream.Stream;
import java.util.stream.StreamSupport;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * The keys that have an entry in one state under one namespace, in RocksDB order (by key group,
 * then key bytes), each once. It walks the state's whole column family and keeps the entries whose
 * namespace bytes (behind the key) equal the wanted namespace's bytes; for map state, where one key
 * has many entries, consecutive repeats of a key are skipped.
 *
 * <p>Holds a native iterator until exhausted or {@link #close() closed}; the backend closes any left
 * open when it closes. Task thread only.
 */
final class RocksDBKeysIterator<K> implements Iterator<K>, AutoCloseable {

    private final String stateName;
    private final RocksIterator iterator;
    private final TypeSerializer<K> keySerializer;
    private final byte[] namespaceBytes;
    /** Map entries carry a user key behind the namespace. */
    private final boolean entriesHaveUserKeys;
    /** The backend's open iterators; this one is in it while open. */
    private final Set<AutoCloseable> openIterators;
    private final DataInputDeserializer in = new DataInputDeserializer();
    private byte[] previousKeyBytes;
    private K next;
    private boolean closed;

    RocksDBKeysIterator(String stateName, RocksIterator iterator, TypeSerializer<K> keySerializer,
            byte[] namespaceBytes, boolean entriesHaveUserKeys, Set<AutoCloseable> openIterators) {
        this.stateName = stateName;
        this.iterator = iterator;
        this.keySerializer = keySerializer;
        this.namespaceBytes = namespaceBytes;
        this.entriesHaveUserKeys = entriesHaveUserKeys;
        this.openIterators = openIterators;
        openIterators.add(this);
        iterator.seekToFirst();
    }

    /** This iterator as a lazy stream that closes the native iterator when closed or exhausted. */
    Stream<K> stream() {
        return StreamSupport.stream(Spliterators.spliteratorUnknownSize(this, Spliterator.ORDERED | Spliterator.NONNULL),
                false).onClose(this::close);
    }

    @Override
    public boolean hasNext() {
        if (next != null) {
            return true;
        }
        if (closed) {
            return false;
        }
        try {
            next = advance();
        } catch (IOException e) {
            close();
            throw new UncheckedIOException("cannot read the keys of state '" + stateName + "'", e);
        } catch (RocksDBException e) {
            close();
            throw RocksDBErrors.wrapUnchecked("iterate the keys of state", stateName, e);
        }
        if (next == null) {
            close();
        }
        return next != null;
    }

    private K advance() throws IOException, RocksDBException {
        for (; iterator.isValid(); iterator.next()) {
            byte[] rocksKey = iterator.key();
            int start = RocksDBKeyBuilder.KEY_GROUP_PREFIX_BYTES;
            in.setBuffer(rocksKey, start, rocksKey.length - start);
            K key = keySerializer.deserialize(in);
            int namespaceStart = start + in.position();
            int namespaceEnd = namespaceStart + namespaceBytes.length;
            boolean lengthMatches = entriesHaveUserKeys ? namespaceEnd <= rocksKey.length : namespaceEnd == rocksKey.length;
            if (!lengthMatches || !Arrays.equals(rocksKey, namespaceStart, namespaceEnd, namespaceBytes, 0, namespaceBytes.length)) {
                continue;
            }
            if (entriesHaveUserKeys && previousKeyBytes != null
                    && Arrays.equals(rocksKey, 0, namespaceStart, previousKeyBytes, 0, previousKeyBytes.length)) {
                continue;
            }
            previousKeyBytes = Arrays.copyOf(rocksKey, namespaceStart);
            iterator.next();
            return key;
        }
        iterator.status();
        return null;
    }

    @Override
    public K next() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more keys in state '" + stateName + "'");
        }
        K result = next;
        next = null;
        return result;
    }

    @Override
    public void close() {
        if (!closed) {
            closed = true;
            iterator.close();
            openIterators.remove(this);
        }
    }
}
