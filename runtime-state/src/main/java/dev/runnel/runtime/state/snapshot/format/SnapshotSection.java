package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.core.memory.CorruptDataException;
import java.util.Arrays;

/**
 * One state's section of one key group, read and checksum-verified by {@link KeyedSnapshotReader}: the
 * raw bytes of its entries plus where they came from. Stores either decode the entries with
 * {@link #entries()} or keep the bytes as they are and pass them on to a later snapshot with
 * {@link KeyedSnapshotWriter#writeRawSection}.
 *
 * <p>Immutable view: the bytes are {@code array()[offset(), offset() + length())}; the array may be
 * shared with the other sections of the key group and must not be modified. Safe to keep after the
 * reader is closed.
 */
public final class SnapshotSection {

    private final String snapshotDescription;
    private final int keyGroup;
    private final int stateIndex;
    private final StateMetaInfo metaInfo;
    private final int entryCount;
    private final byte[] array;
    private final int offset;
    private final int length;

    SnapshotSection(String snapshotDescription, int keyGroup, int stateIndex, StateMetaInfo metaInfo,
            int entryCount, byte[] array, int offset, int length) {
        this.snapshotDescription = snapshotDescription;
        this.keyGroup = keyGroup;
        this.stateIndex = stateIndex;
        this.metaInfo = metaInfo;
        this.entryCount = entryCount;
        this.array = array;
        this.offset = offset;
        this.length = length;
    }

    /** Where the section was read from ({@link dev.runnel.runtime.state.KeyGroupsStateHandle#describe()}). */
    public String snapshotDescription() {
        return snapshotDescription;
    }

    public int keyGroup() {
        return keyGroup;
    }

    /** The state's index in the snapshot it was read from. */
    public int stateIndex() {
        return stateIndex;
    }

    public StateMetaInfo metaInfo() {
        return metaInfo;
    }

    /** The number of entries in the section; at least 1. */
    public int entryCount() {
        return entryCount;
    }

    /** The array holding the section's bytes; do not modify. */
    public byte[] array() {
        return array;
    }

    public int offset() {
        return offset;
    }

    public int length() {
        return length;
    }

    /** A copy of the section's bytes. */
    public byte[] copyOfBytes() {
        return Arrays.copyOfRange(array, offset, offset + length);
    }

    /** A new cursor over the section's entries. */
    public SnapshotEntryCursor entries() {
        return new SnapshotEntryCursor(this);
    }

    /** "state 'x', key group 7 of snapshot ...", for messages. */
    public String describe() {
        return "state '" + metaInfo.name() + "', key group " + keyGroup + " of snapshot " + snapshotDescription;
    }

    /**
     * An exception saying that entry {@code entryIndex} of this section is unusable because of
     * {@code what}; for stores whose decoding of an entry fails.
     */
    public CorruptDataException corruptEntry(int entryIndex, String what, Throwable cause) {
        return new CorruptDataException("Keyed-state snapshot " + snapshotDescription + " cannot be restored: key group "
                + keyGroup + ", state '" + metaInfo.name() + "', entry " + entryIndex + " of " + entryCount + ": "
                + what, cause);
    }

    @Override
    public String toString() {
        return "SnapshotSection{" + describe() + ", entries=" + entryCount + ", bytes=" + length + '}';
    }
}
