package dev.runnel.runtime.state.rocksdb;

import java.io.IOException;
import java.util.Arrays;
import org.rocksdb.ColumnFamilyHandle;
import org.rocksdb.RocksDB;
import org.rocksdb.RocksDBException;
import org.rocksdb.WriteBatch;
import org.rocksdb.WriteOptions;

/**
 * A bounded write-back cache of serialized values in front of RocksDB, for the states that hold one
 * value per key and namespace (value, reducing, aggregating). Read-modify-write of hot keys, the
 * typical use of such state, then costs a hash lookup instead of two JNI calls into RocksDB.
 *
 * <pre>
 *   bucket = hash(key bytes) &amp; mask          8 slots per bucket, CLOCK eviction within the bucket
 *   slot   = owner (state) | hash | key bytes | value bytes (or absent) | dirty | referenced
 * </pre>
 *
 * <ul>
 *   <li>Entries hold bytes, never objects: a value read from the cache is deserialized afresh, exactly
 *       as from RocksDB, so callers cannot change cached state by mutating what they read.
 *   <li>Writes and deletes stay in the cache (dirty) until their slot is evicted, or until
 *       {@link #flush} / {@link #flushAll} writes them to RocksDB. Key listings, which read RocksDB
 *       directly, flush first; a snapshot copies the dirty entries instead ({@link #copyDirty}) and
 *       lays them over what it reads from RocksDB. This loses nothing RocksDB would keep: the
 *       write-ahead log is off, so state is durable only through snapshots either way.
 *   <li>Reads that miss fill the cache, including "absent", so repeated reads of keys without a value
 *       do not go to RocksDB either.
 *   <li>Values longer than {@link #maxValueBytes} bypass the cache. Memory is bounded by
 *       {@code capacity} entries of at most that size plus their keys.
 * </ul>
 *
 * <p>Task thread only. Holds no native resource between calls (flushes close their write batch).
 */
final class RocksDBValueCache {

    static final int WAYS = 8;

    private static final byte DIRTY = 1;
    private static final byte REFERENCED = 2;

    /** Identifies a cached state: its column family and name (for errors). */
    static final class Owner {
        final org.rocksdb.ColumnFamilyHandle columnFamily;
        final String name;

        Owner(org.rocksdb.ColumnFamilyHandle columnFamily, String name) {
            this.columnFamily = columnFamily;
            this.name = name;
        }
    }

    private final RocksDB db;
    private final WriteOptions writeOptions;
    private final int maxValueBytes;
    private final int bucketMask;
    private final Owner[] owners;
    private final int[] hashes;
    private final byte[][] keys;
    private final byte[][] values;
    /** Length of the value in {@link #values}; -1 when the key has no value. */
    private final int[] valueLengths;
    private final byte[] flags;
    private final byte[] clockHands;

    /**
     * @param capacity entries, rounded up to a power of two of at least {@value #WAYS}
     * @param maxValueBytes values longer than this are not cached
     */
    RocksDBValueCache(RocksDB db, WriteOptions writeOptions, int capacity, int maxValueBytes) {
        this.db = db;
        this.writeOptions = writeOptions;
        this.maxValueBytes = maxValueBytes;
        int buckets = Integer.highestOneBit(Math.max(1, (capacity + WAYS - 1) / WAYS));
        if (buckets * WAYS < capacity) {
            buckets <<= 1;
        }
        int slots = buckets * WAYS;
        this.bucketMask = buckets - 1;
        this.owners = new Owner[slots];
        this.hashes = new int[slots];
        this.keys = new byte[slots][];
        this.values = new byte[slots][];
        this.valueLengths = new int[slots];
        this.flags = new byte[slots];
        this.clockHands = new byte[buckets];
    }

    /** A well-mixed hash of {@code key[0, length)}. */
    static int hash(byte[] key, int length) {
        int h = 0x9747b28c;
        for (int i = 0; i < length; i++) {
            h = 31 * h + key[i];
        }
        h ^= h >>> 16;
        h *= 0x85ebca6b;
        h ^= h >>> 13;
        h *= 0xc2b2ae35;
        return h ^ (h >>> 16);
    }

    /** The slot holding {@code owner}'s entry for the key, or -1. Marks it referenced. */
    int find(Owner owner, byte[] key, int keyLength, int hash) {
        int base = (hash & bucketMask) * WAYS;
        for (int slot = base; slot < base + WAYS; slot++) {
            if (owners[slot] == owner && hashes[slot] == hash) {
                byte[] cached = keys[slot];
                if (cached.length == keyLength && Arrays.equals(cached, 0, keyLength, key, 0, keyLength)) {
                    flags[slot] |= REFERENCED;
                    return slot;
                }
            }
        }
        return -1;
    }

    /** The cached value's length in {@code slot}, -1 when the key has no value. */
    int valueLength(int slot) {
        return valueLengths[slot];
    }

    /** The array holding {@code slot}'s value bytes {@code [0, valueLength)}; do not modify. */
    byte[] valueArray(int slot) {
        return values[slot];
    }

    /** Remembers what RocksDB holds for the key ({@code valueLength} -1: nothing), clean. */
    void fill(Owner owner, byte[] key, int keyLength, int hash, byte[] value, int valueLength) throws IOException {
        if (valueLength <= maxValueBytes) {
            store(owner, key, keyLength, hash, value, valueLength, (byte) 0);
        }
    }

    /**
     * Records a write ({@code valueLength} -1: a delete) of the key. Returns false when the value is
     * too large to cache; the caller then writes it to RocksDB itself (any cached entry is dropped).
     */
    boolean write(Owner owner, byte[] key, int keyLength, int hash, byte[] value, int valueLength) throws IOException {
        if (valueLength > maxValueBytes) {
            int slot = find(owner, key, keyLength, hash);
            if (slot >= 0) {
                // Superseded by the caller's direct write: drop it, dirty or not.
                owners[slot] = null;
                flags[slot] = 0;
            }
            return false;
        }
        store(owner, key, keyLength, hash, value, valueLength, DIRTY);
        return true;
    }

    private void store(Owner owner, byte[] key, int keyLength, int hash, byte[] value, int valueLength, byte dirty)
            throws IOException {
        int slot = find(owner, key, keyLength, hash);
        if (slot < 0) {
            slot = victim(hash);
            evict(slot);
            owners[slot] = owner;
            hashes[slot] = hash;
            byte[] keyArray = keys[slot];
            if (keyArray == null || keyArray.length != keyLength) {
                keyArray = new byte[keyLength];
                keys[slot] = keyArray;
            }
            System.arraycopy(key, 0, keyArray, 0, keyLength);
            flags[slot] = REFERENCED;
        }
        if (valueLength > 0) {
            byte[] valueArray = values[slot];
            if (valueArray == null || valueArray.length < valueLength) {
                valueArray = new byte[Math.max(valueLength, 8)];
                values[slot] = valueArray;
            }
            System.arraycopy(value, 0, valueArray, 0, valueLength);
        }
        valueLengths[slot] = valueLength;
        flags[slot] |= dirty;
    }

    /** An empty slot of the key's bucket, or the CLOCK victim among its slots. */
    private int victim(int hash) {
        int bucket = hash & bucketMask;
        int base = bucket * WAYS;
        for (int slot = base; slot < base + WAYS; slot++) {
            if (owners[slot] == null) {
                return slot;
            }
        }
        int hand = clockHands[bucket];
        while (true) {
            int slot = base + hand;
            hand = (hand + 1) & (WAYS - 1);
            if ((flags[slot] & REFERENCED) == 0) {
                clockHands[bucket] = (byte) hand;
                return slot;
            }
            flags[slot] &= ~REFERENCED;
        }
    }

    /** Writes {@code slot}'s entry to RocksDB if dirty and empties the slot. */
    private void evict(int slot) throws IOException {
        Owner owner = owners[slot];
        if (owner == null) {
            return;
        }
        if ((flags[slot] & DIRTY) != 0) {
            byte[] key = keys[slot];
            try {
                if (valueLengths[slot] < 0) {
                    db.delete(owner.columnFamily, writeOptions, key);
                } else {
                    db.put(owner.columnFamily, writeOptions, key, 0, key.length, values[slot], 0, valueLengths[slot]);
                }
            } catch (RocksDBException e) {
                throw RocksDBErrors.wrap("write back a cached value of state", owner.name, e);
            }
        }
        owners[slot] = null;
        flags[slot] = 0;
    }

    /** Writes every dirty entry of {@code owner} (or of all owners, when null) to RocksDB; they stay cached, clean. */
    void flush(Owner owner) throws IOException {
        String failing = null;
        try (WriteBatch batch = new WriteBatch()) {
            for (int slot = 0; slot < owners.length; slot++) {
                Owner slotOwner = owners[slot];
                if (slotOwner == null || (flags[slot] & DIRTY) == 0 || (owner != null && slotOwner != owner)) {
                    continue;
                }
                failing = slotOwner.name;
                byte[] key = keys[slot];
                if (valueLengths[slot] < 0) {
                    batch.delete(slotOwner.columnFamily, key);
                } else {
                    batch.put(slotOwner.columnFamily, key, Arrays.copyOf(values[slot], valueLengths[slot]));
                }
            }
            if (batch.count() > 0) {
                db.write(writeOptions, batch);
            }
        } catch (RocksDBException e) {
            throw RocksDBErrors.wrap("write back the cached values of state", failing, e);
        }
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] != null && (owner == null || owners[slot] == owner)) {
                flags[slot] &= ~DIRTY;
            }
        }
    }

    /** Writes every dirty entry to RocksDB. */
    void flushAll() throws IOException {
        flush(null);
    }

    /**
     * A copy of every dirty entry, for a snapshot that must see them; they stay dirty here. One pass
     * to size, one to copy into a single array.
     */
    RocksDBDirtyValues copyDirty() {
        int count = 0;
        int totalBytes = 0;
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] != null && (flags[slot] & DIRTY) != 0) {
                count++;
                totalBytes += keys[slot].length + Math.max(0, valueLengths[slot]);
            }
        }
        if (count == 0) {
            return RocksDBDirtyValues.NONE;
        }
        ColumnFamilyHandle[] columnFamilies = new ColumnFamilyHandle[count];
        int[] keyOffsets = new int[count];
        int[] keyLengths = new int[count];
        int[] copiedValueLengths = new int[count];
        byte[] bytes = new byte[totalBytes];
        int entry = 0;
        int offset = 0;
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] == null || (flags[slot] & DIRTY) == 0) {
                continue;
            }
            byte[] key = keys[slot];
            int valueLength = valueLengths[slot];
            columnFamilies[entry] = owners[slot].columnFamily;
            keyOffsets[entry] = offset;
            keyLengths[entry] = key.length;
            copiedValueLengths[entry] = valueLength;
            System.arraycopy(key, 0, bytes, offset, key.length);
            offset += key.length;
            if (valueLength > 0) {
                System.arraycopy(values[slot], 0, bytes, offset, valueLength);
                offset += valueLength;
            }
            entry++;
        }
        return new RocksDBDirtyValues(columnFamilies, keyOffsets, keyLengths, copiedValueLengths, bytes);
    }

    /** The number of slots; for tests. */
    int capacity() {
        return owners.length;
    }

    /** How many entries are dirty; for tests. */
    int dirtyCount() {
        int count = 0;
        for (int slot = 0; slot < owners.length; slot++) {
            if (owners[slot] != null && (flags[slot] & DIRTY) != 0) {
                count++;
            }
        }
        return count;
    }
}
