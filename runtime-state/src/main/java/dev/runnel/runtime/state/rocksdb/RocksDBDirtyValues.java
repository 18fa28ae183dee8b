package dev.runnel.runtime.state.rocksdb;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import org.rocksdb.ColumnFamilyHandle;

/**
 * The dirty entries of a {@link RocksDBValueCache} at a snapshot's synchronous phase, copied: for
 * those keys the snapshot must hold the cached value (or no value, for a cached delete) instead of
 * what RocksDB holds. Copying them costs a few milliseconds for a full cache; writing them into
 * RocksDB in the synchronous phase, as a flush does, measured 100 to 550 ms for 65,536 entries. The
 * cache keeps them dirty and writes them back as usual, after the snapshot's moment.
 *
 * <pre>
 *   bytes:  [ key0 | value0 | key1 | key2 | value2 | ... ]     key1 is a delete: no value bytes
 *   per entry: column family, key offset, key length, value length (-1: delete)
 * </pre>
 *
 * <p>A rescale handover ({@link RocksDBHandoverMeta}) carries them to the new stores {@link #encode encoded}
 * with the state names instead of the column family handles, and each new store writes those of its key
 * groups after opening the handed-over files ({@link #decode}): the old store's synchronous phase then only
 * copies them, instead of writing them into RocksDB before its flush.
 *
 * <pre>
 *   encoded: varint state count, then per state: varint name length, name (UTF-8), varint entry count,
 *            then per entry: varint key length, key, varint value length + 1 (0: a delete), value
 * </pre>
 *
 * <p>Built on the task thread; read by the snapshot's writing thread, which sorts each column
 * family's entries into RocksDB's key order ({@link #cursor}). Immutable after construction.
 */
final class RocksDBDirtyValues {

    /** No dirty entries (no cache, or a clean one). */
    static final RocksDBDirtyValues NONE = new RocksDBDirtyValues(new ColumnFamilyHandle[0], new int[0], new int[0],
            new int[0], new byte[0]);

    private final ColumnFamilyHandle[] columnFamilies;
    private final int[] keyOffsets;
    private final int[] keyLengths;
    /** -1 for a delete; otherwise the value's bytes follow the key's. */
    private final int[] valueLengths;
    private final byte[] bytes;

    RocksDBDirtyValues(ColumnFamilyHandle[] columnFamilies, int[] keyOffsets, int[] keyLengths, int[] valueLengths,
            byte[] bytes) {
        this.columnFamilies = columnFamilies;
        this.keyOffsets = keyOffsets;
        this.keyLengths = keyLengths;
        this.valueLengths = valueLengths;
        this.bytes = bytes;
    }

    int size() {
        return columnFamilies.length;
    }

    /**
     * The entries of {@code states}' column families as bytes (the format in the class comment), naming each
     * by its state; entries of other column families are left out (there are none when {@code states} are
     * all the states of the store the cache belongs to).
     */
    byte[] encode(List<RocksDBSnapshotWriter.SnapshotState> states) {
        DataOutputSerializer out = new DataOutputSerializer(Math.max(64, bytes.length + 8 * columnFamilies.length));
        out.writeVarInt(states.size());
        for (RocksDBSnapshotWriter.SnapshotState state : states) {
            byte[] name = state.name().getBytes(StandardCharsets.UTF_8);
            out.writeVarInt(name.length);
            out.write(name, 0, name.length);
            int count = 0;
            for (ColumnFamilyHandle cf : columnFamilies) {
                if (cf == state.columnFamily()) {
                    count++;
                }
            }
            out.writeVarInt(count);
            for (int i = 0; i < columnFamilies.length; i++) {
                if (columnFamilies[i] != state.columnFamily()) {
                    continue;
                }
                out.writeVarInt(keyLengths[i]);
                out.write(bytes, keyOffsets[i], keyLengths[i]);
                out.writeVarInt(valueLengths[i] + 1);
                if (valueLengths[i] > 0) {
                    out.write(bytes, keyOffsets[i] + keyLengths[i], valueLengths[i]);
                }
            }
        }
        return out.getCopyOfBuffer();
    }

    /** Receives the entries of {@link #decode}. */
    interface EncodedEntryConsumer {
        /** One entry of state {@code stateName}; {@code value} null for a delete. */
        void accept(String stateName, byte[] key, byte[] value) throws IOException;
    }

    /**
     * Calls {@code consumer} with every entry of {@code encoded} (made by {@link #encode}), in its order.
     *
     * @throws CorruptDataException when the bytes are not such an encoding
     */
    static void decode(byte[] encoded, EncodedEntryConsumer consumer) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(encoded);
        int states = in.readVarInt();
        for (int s = 0; s < states; s++) {
            String name = new String(readBytes(in, in.readVarInt()), StandardCharsets.UTF_8);
            int count = in.readVarInt();
            for (int e = 0; e < count; e++) {
                byte[] key = readBytes(in, in.readVarInt());
                int valueLength = in.readVarInt() - 1;
                consumer.accept(name, key, valueLength < 0 ? null : readBytes(in, valueLength));
            }
        }
        if (in.available() != 0) {
            throw new CorruptDataException(in.available() + " unexpected bytes after the handed-over cache entries");
        }
    }

    private static byte[] readBytes(DataInputDeserializer in, int length) throws IOException {
        if (length < 0 || length > in.available()) {
            throw new CorruptDataException("handed-over cache entries claim " + length + " bytes where "
                    + in.available() + " remain");
        }
        byte[] read = new byte[length];
        in.readFully(read, 0, length);
        return read;
    }

    /** The entries of {@code columnFamily}, in RocksDB's key order (unsigned bytes); null when it has none. */
    Cursor cursor(ColumnFamilyHandle columnFamily) {
        int count = 0;
        for (ColumnFamilyHandle cf : columnFamilies) {
            if (cf == columnFamily) {
                count++;
            }
        }
        if (count == 0) {
            return null;
        }
        Integer[] order = new Integer[count];
        int n = 0;
        for (int i = 0; i < columnFamilies.length; i++) {
            if (columnFamilies[i] == columnFamily) {
                order[n++] = i;
            }
        }
        Arrays.sort(order, (a, b) -> Arrays.compareUnsigned(bytes, keyOffsets[a], keyOffsets[a] + keyLengths[a],
                bytes, keyOffsets[b], keyOffsets[b] + keyLengths[b]));
        return new Cursor(order);
    }

    /** One column family's entries in key order; starts on the first. Writing thread only. */
    final class Cursor {
        private final Integer[] order;
        private int position;

        private Cursor(Integer[] order) {
            this.order = order;
        }

        boolean isValid() {
            return position < order.length;
        }

        void next() {
            position++;
        }

        /** The array holding the current key and value; do not modify. */
        byte[] array() {
            return bytes;
        }

        int keyOffset() {
            return keyOffsets[order[position]];
        }

        int keyLength() {
            return keyLengths[order[position]];
        }

        int keyGroup() {
            int offset = keyOffset();
            return ((bytes[offset] & 0xFF) << 8) | (bytes[offset + 1] & 0xFF);
        }

        /** Where the current value starts; only when {@link #isDelete()} is false. */
        int valueOffset() {
            return keyOffset() + keyLength();
        }

        int valueLength() {
            return valueLengths[order[position]];
        }

        boolean isDelete() {
            return valueLength() < 0;
        }

        /** The order of the current key against RocksDB key {@code key[0, length)}: negative if it comes first. */
        int compareTo(byte[] key, int length) {
            return Arrays.compareUnsigned(bytes, keyOffset(), keyOffset() + keyLength(), key, 0, length);
        }
    }
}
