package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.core.memory.CorruptDataException;
import java.util.Arrays;

/**
 * Walks the entries of one {@link SnapshotSection} without copying them: after each {@link #next()}
 * the accessors give offsets and lengths into {@link #array()} of the entry's parts, laid out by the
 * state's {@link StateKind}:
 *
 * <ul>
 *   <li>every kind: {@link #keyOffset()}/{@link #keyLength()} is the key-and-namespace bytes (for a
 *       {@link StateKind#PRIORITY_QUEUE}, the element bytes);
 *   <li>VALUE, REDUCING, AGGREGATING: {@link #valueOffset()}/{@link #valueLength()};
 *   <li>LIST: {@link #size()} elements at {@link #elementOffset(int)}/{@link #elementLength(int)};
 *   <li>MAP: {@link #size()} entries with {@link #userKeyOffset(int)}/{@link #userKeyLength(int)},
 *       {@link #hasUserValue(int)} and {@link #userValueOffset(int)}/{@link #userValueLength(int)}.
 * </ul>
 *
 * Each entry's structure is checked as it is read (every length within the section, the section
 * consumed exactly by its entry count); violations fail with a {@link CorruptDataException} naming the
 * snapshot, state, key group and entry. Decode the parts with a
 * {@link dev.runnel.core.memory.DataInputDeserializer} over {@code array(), offset, length}.
 *
 * <p>Not thread-safe. Reuses its internal arrays across entries, so it allocates only when an entry
 * has more elements than any before it.
 */
public final class SnapshotEntryCursor {

    private final SnapshotSection section;
    private final StateKind kind;
    private final byte[] array;
    private final int end;

    private int position;
    private int index = -1;
    private int keyOffset;
    private int keyLength;
    private int valueOffset;
    private int valueLength;
    /** The length read by the last {@link #readLengthPrefixed}, next to the offset it returns. */
    private int lastLength;
    private int size;
    /** Per element (list) or entry (map): offset and length of the element / user key. */
    private int[] itemOffsets = new int[8];
    private int[] itemLengths = new int[8];
    /** Per map entry: offset and length of the user value; length -1 when the value is null. */
    private int[] valueOffsets = new int[8];
    private int[] valueLengths = new int[8];

    SnapshotEntryCursor(SnapshotSection section) {
        this.section = section;
        this.kind = section.metaInfo().kind();
        this.array = section.array();
        this.position = section.offset();
        this.end = section.offset() + section.length();
    }

    /**
     * Moves to the next entry; false after the last one (having checked that the section holds no
     * further bytes).
     */
    public boolean next() throws CorruptDataException {
        if (index + 1 >= section.entryCount()) {
            // the last entry's read already checked that it ends the section
            index = section.entryCount();
            return false;
        }
        index++;
        keyOffset = readLengthPrefixed("the key and namespace");
        keyLength = lastLength;
        switch (kind) {
            case VALUE, REDUCING, AGGREGATING -> {
                valueOffset = readLengthPrefixed("the value");
                valueLength = lastLength;
            }
            case LIST -> {
                size = readCount("elements");
                ensureItems(size);
                for (int i = 0; i < size; i++) {
                    itemOffsets[i] = readLengthPrefixed("list element " + i);
                    itemLengths[i] = lastLength;
                }
            }
            case MAP -> {
                size = readCount("map entries");
                ensureItems(size);
                for (int i = 0; i < size; i++) {
                    itemOffsets[i] = readLengthPrefixed("the key of map entry " + i);
                    itemLengths[i] = lastLength;
                    if (position >= end) {
                        throw corrupt("map entry " + i + " ends before its value flag");
                    }
                    int flag = array[position++];
                    if (flag == 1) {
                        valueOffsets[i] = readLengthPrefixed("the value of map entry " + i);
                        valueLengths[i] = lastLength;
                    } else if (flag == 0) {
                        valueOffsets[i] = position;
                        valueLengths[i] = -1;
                    } else {
                        throw corrupt("map entry " + i + " has value flag " + flag + " (expected 0 or 1)");
                    }
                }
            }
            case PRIORITY_QUEUE -> {
                // the element is the whole entry
            }
        }
        if (index + 1 == section.entryCount() && position != end) {
            throw corrupt((end - position) + " bytes remain after the last entry");
        }
        return true;
    }

    /** The index of the current entry, from 0. */
    public int index() {
        return index;
    }

    public SnapshotSection section() {
        return section;
    }

    /** The array all offsets point into; do not modify. */
    public byte[] array() {
        return array;
    }

    public int keyOffset() {
        return keyOffset;
    }

    public int keyLength() {
        return keyLength;
    }

    public int valueOffset() {
        return valueOffset;
    }

    public int valueLength() {
        return valueLength;
    }

    /** The number of list elements or map entries of the current entry. */
    public int size() {
        return size;
    }

    public int elementOffset(int i) {
        return itemOffsets[checkItem(i)];
    }

    public int elementLength(int i) {
        return itemLengths[checkItem(i)];
    }

    public int userKeyOffset(int i) {
        return itemOffsets[checkItem(i)];
    }

    public int userKeyLength(int i) {
        return itemLengths[checkItem(i)];
    }

    /** False when map entry {@code i}'s value is null. */
    public boolean hasUserValue(int i) {
        return valueLengths[checkItem(i)] >= 0;
    }

    public int userValueOffset(int i) {
        return valueOffsets[checkItem(i)];
    }

    /** The length of map entry {@code i}'s value; -1 when it is null. */
    public int userValueLength(int i) {
        return valueLengths[checkItem(i)];
    }

    /** An exception naming the current entry, for a decoder that finds its bytes unusable. */
    public CorruptDataException corrupt(String what) {
        return section.corruptEntry(index, what, null);
    }

    /** Like {@link #corrupt(String)}, keeping the decoder's exception as the cause. */
    public CorruptDataException corrupt(String what, Throwable cause) {
        return section.corruptEntry(index, what, cause);
    }

    // ------------------------------------------------------------------ parsing

    private int readLengthPrefixed(String what) throws CorruptDataException {
        int length = readVarInt(what);
        if (length > end - position) {
            throw corrupt(what + " claims " + length + " bytes but only " + (end - position)
                    + " remain in the section");
        }
        int offset = position;
        position += length;
        lastLength = length;
        return offset;
    }

    private int readCount(String what) throws CorruptDataException {
        int count = readVarInt("the number of " + what);
        // every element takes at least its one-byte length prefix
        if (count > end - position) {
            throw corrupt("bogus count of " + count + " " + what + ": only " + (end - position)
                    + " bytes remain in the section");
        }
        return count;
    }

    private int readVarInt(String what) throws CorruptDataException {
        int result = 0;
        for (int shift = 0; shift < 35; shift += 7) {
            if (position >= end) {
                throw corrupt("the section ends inside the length of " + what);
            }
            int b = array[position++] & 0xFF;
            result |= (b & 0x7F) << shift;
            if ((b & 0x80) == 0) {
                if (result < 0) {
                    throw corrupt("the length of " + what + " is negative");
                }
                return result;
            }
        }
        throw corrupt("the length of " + what + " is longer than 5 bytes");
    }

    private void ensureItems(int count) {
        if (count > itemOffsets.length) {
            int newLength = Math.max(count, itemOffsets.length * 2);
            itemOffsets = Arrays.copyOf(itemOffsets, newLength);
            itemLengths = Arrays.copyOf(itemLengths, newLength);
            valueOffsets = Arrays.copyOf(valueOffsets, newLength);
            valueLengths = Arrays.copyOf(valueLengths, newLength);
        }
    }

    private int checkItem(int i) {
        if (i < 0 || i >= size) {
            throw new IndexOutOfBoundsException("item " + i + " of an entry with " + size);
        }
        return i;
    }
}
