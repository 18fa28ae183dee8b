package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.DataInputDeserializer;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.NoSuchElementException;
import java.util.function.Function;
import org.rocksdb.RocksDBException;
import org.rocksdb.RocksIterator;

/**
 * Iterates the entries of one map (one key and namespace) in RocksDB key order.
 *
 * <p>Entries are read in batches of up to {@value #BATCH_SIZE}: each batch opens a RocksDB iterator,
 * seeks past the last key returned, copies the batch and closes the native iterator again. So an
 * iterator the caller abandons holds no native resource, and writes made between batches are seen.
 * {@link #remove()} deletes the last returned entry; {@link Map.Entry#setValue} writes through.
 *
 * <p>Task thread only; the map's key and namespace are captured at creation.
 *
 * @param <R> what the iterator hands out (entry, key or value)
 */
final class RocksDBMapIterator<UK, UV, R> implements Iterator<R> {

    static final int BATCH_SIZE = 128;

    private final RocksDBMapState<?, ?, UK, UV> state;
    private final byte[] prefix;
    private final Function<Map.Entry<UK, UV>, R> view;
    private final List<RawEntry> batch = new ArrayList<>();
    private final DataInputDeserializer in = new DataInputDeserializer();
    private int position;
    /** The RocksDB key of the last entry loaded; the next batch starts after it. */
    private byte[] lastLoadedKey;
    private boolean exhausted;
    private RawEntry lastReturned;

    RocksDBMapIterator(RocksDBMapState<?, ?, UK, UV> state, byte[] prefix, Function<Map.Entry<UK, UV>, R> view) {
        this.state = state;
        this.prefix = prefix;
        this.view = view;
    }

    @Override
    public boolean hasNext() {
        if (position < batch.size()) {
            return true;
        }
        if (exhausted) {
            return false;
        }
        loadBatch();
        return position < batch.size();
    }

    @Override
    public R next() {
        return view.apply(nextEntry());
    }

    private RawEntry nextEntry() {
        if (!hasNext()) {
            throw new NoSuchElementException("no more entries in map state '" + state.getName() + "'");
        }
        lastReturned = batch.get(position++);
        return lastReturned;
    }

    /** The RocksDB key of the next entry (for bulk deletion). */
    byte[] nextRawKey() {
        return nextEntry().rocksKey;
    }

    @Override
    public void remove() {
        if (lastReturned == null || lastReturned.removed) {
            throw new IllegalStateException("remove() needs a preceding next() on map state '"
                    + state.getName() + "' (and may be called once per element)");
        }
        try {
            state.deleteRaw(lastReturned.rocksKey);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        lastReturned.removed = true;
    }

    private void loadBatch() {
        batch.clear();
        position = 0;
        try (RocksIterator iterator = state.db.newIterator(state.columnFamily, state.readOptions)) {
            if (lastLoadedKey == null) {
                iterator.seek(prefix);
            } else {
                iterator.seek(lastLoadedKey);
                if (iterator.isValid() && Arrays.equals(iterator.key(), lastLoadedKey)) {
                    iterator.next();
                }
            }
            while (batch.size() < BATCH_SIZE && iterator.isValid()) {
                byte[] key = iterator.key();
                if (!startsWith(key, prefix)) {
                    exhausted = true;
                    break;
                }
                batch.add(new RawEntry(key, iterator.value()));
                iterator.next();
            }
            if (!iterator.isValid()) {
                iterator.status();
                exhausted = true;
            }
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrapUnchecked("iterate map state", state.getName(), e);
        }
        if (!batch.isEmpty()) {
            lastLoadedKey = batch.get(batch.size() - 1).rocksKey;
        }
    }

    static boolean startsWith(byte[] key, byte[] prefix) {
        return key.length >= prefix.length
                && Arrays.equals(key, 0, prefix.length, prefix, 0, prefix.length);
    }

    /** One entry as RocksDB holds it; deserialized on first access. */
    private final class RawEntry implements Map.Entry<UK, UV> {
        final byte[] rocksKey;
        byte[] rocksValue;
        boolean removed;
        private UK key;
        private boolean keyRead;
        private UV value;
        private boolean valueRead;

        RawEntry(byte[] rocksKey, byte[] rocksValue) {
            this.rocksKey = rocksKey;
            this.rocksValue = rocksValue;
        }

        @Override
        public UK getKey() {
            if (!keyRead) {
                try {
                    key = state.deserializeUserKey(rocksKey, prefix.length, in);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read a key of map state '" + state.getName() + "'", e);
                }
                keyRead = true;
            }
            return key;
        }

        @Override
        public UV getValue() {
            if (!valueRead) {
                try {
                    value = state.deserializeUserValue(rocksValue, in);
                } catch (IOException e) {
                    throw new UncheckedIOException("cannot read a value of map state '" + state.getName() + "'", e);
                }
                valueRead = true;
            }
            return value;
        }

        @Override
        public UV setValue(UV newValue) {
            if (removed) {
                throw new IllegalStateException("the entry was removed from map state '" + state.getName() + "'");
            }
            UV old = getValue();
            try {
                state.putRaw(rocksKey, newValue, rocksKey.length - prefix.length);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            value = newValue;
            return old;
        }

        @Override
        public String toString() {
            return getKey() + "=" + getValue();
        }
    }
}
