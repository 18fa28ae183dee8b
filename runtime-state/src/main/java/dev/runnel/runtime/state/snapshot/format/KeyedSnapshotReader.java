package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateHandle;
import java.io.Closeable;
import java.io.EOFException;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Reads a keyed-state snapshot written by {@link KeyedSnapshotWriter} from a {@link KeyGroupsStateHandle}:
 * the header on {@link #open}, then any key group's block on demand, by seeking to the offset the
 * handle records for it. Every length, count and checksum is verified before anything is handed out.
 *
 * <pre>{@code
 * try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(handle)) {
 *     List<StateMetaInfo> states = reader.getStateMetaInfos();
 *     for (int kg : reader.getKeyGroupRange().getIntersection(myRange)) {
 *         for (SnapshotSection section : reader.readKeyGroup(kg)) {
 *             SnapshotEntryCursor entries = section.entries();
 *             while (entries.next()) { ... entries.array(), entries.keyOffset(), ... }
 *         }
 *     }
 * }
 * }</pre>
 *
 * <p>Errors: a truncated or corrupt snapshot fails with a {@link CorruptDataException} (an
 * {@link IOException}) whose message names the snapshot ({@link KeyGroupsStateHandle#describe()}), the key
 * group and state where known, and what was wrong: bad magic or version, a length beyond the data, a
 * CRC-32C mismatch, a bogus count.
 *
 * <p>Not thread-safe: one task thread reads. The sections returned by {@link #readKeyGroup} own their
 * bytes and stay valid after {@link #close()}.
 */
public final class KeyedSnapshotReader implements Closeable {

    /** The least bytes a section takes: state index, entry count (1 byte each), length and CRC. */
    private static final int MIN_SECTION_BYTES = 10;

    /** The least bytes a state's metadata takes: five one-byte length prefixes or kind bytes. */
    private static final int MIN_STATE_META_BYTES = 5;

    /** How much of a snapshot to read first for its header; enough for hundreds of states. */
    private static final int INITIAL_HEADER_READ = 16 * 1024;

    private final KeyGroupsStateHandle handle;
    private final String description;
    private final SeekableByteChannel channel;
    private final long dataSize;
    private final KeyGroupRangeOffsets offsets;
    private final List<StateMetaInfo> states;
    private final CRC32C crc = new CRC32C();
    private final DataInputDeserializer in = new DataInputDeserializer();
    private final byte[] scratch = new byte[32];

    private KeyedSnapshotReader(KeyGroupsStateHandle handle, SeekableByteChannel channel, long dataSize,
            List<StateMetaInfo> states) {
        this.handle = handle;
        this.description = handle.describe();
        this.channel = channel;
        this.dataSize = dataSize;
        this.offsets = handle.getKeyGroupRangeOffsets();
        this.states = states;
    }

    /**
     * {@code handle} as a snapshot in this format, or an error saying that {@code store} cannot read what it
     * is (a store's native snapshot restores only into that store).
     */
    public static KeyGroupsStateHandle requireCanonical(KeyedStateHandle handle, String store) {
        if (handle instanceof KeyGroupsStateHandle canonical) {
            return canonical;
        }
        throw new IllegalArgumentException(store + " cannot restore " + handle.describe() + ": it is a "
                + handle.getClass().getSimpleName() + ", another store's native snapshot. Restore it into the store"
                + " that wrote it, or take a savepoint in the CANONICAL format, which every store reads.");
    }

    /** Opens {@code handle} and reads and checks its header. */
    public static KeyedSnapshotReader open(KeyGroupsStateHandle handle) throws IOException {
        Objects.requireNonNull(handle, "handle");
        SeekableByteChannel channel = handle.openChannel();
        try {
            long size = handle.getStateSize();
            long available = channel.size();
            if (available < size) {
                throw corrupt(handle, "the snapshot is truncated: it should have " + handle.getStateSize()
                        + " bytes but has " + available);
            }
            // The header ends where the first block starts. The handle may hold only some of the
            // snapshot's key groups, so its first offset bounds the header but need not end it: read
            // a prefix and grow it until the header parses.
            KeyGroupRange range = handle.getKeyGroupRangeOffsets().getKeyGroupRange();
            long bound = range.getNumberOfKeyGroups() > 0
                    ? handle.getKeyGroupRangeOffsets().getKeyGroupOffset(range.getStartKeyGroup())
                    : size;
            if (bound < 8 || bound > size) {
                throw corrupt(handle, "the first key group would start at byte " + bound + " but the snapshot has "
                        + size + " bytes: it is truncated, or its key-group offsets do not belong to it");
            }
            int chunk = (int) Math.min(bound, INITIAL_HEADER_READ);
            List<StateMetaInfo> states;
            while (true) {
                byte[] header = new byte[chunk];
                readFully(channel, 0, header, handle, "the header");
                try {
                    states = parseHeader(handle, header);
                    break;
                } catch (HeaderCutShortException e) {
                    if (chunk == bound) {
                        throw corrupt(handle, "header: " + e.getMessage(), e);
                    }
                    // only the prefix we read was too short: read more
                    chunk = (int) Math.min(bound, Math.min(Integer.MAX_VALUE - 16, (long) chunk * 4));
                }
            }
            return new KeyedSnapshotReader(handle, channel, size, states);
        } catch (IOException | RuntimeException e) {
            closeQuietly(channel, e);
            throw e;
        }
    }

    private static List<StateMetaInfo> parseHeader(KeyGroupsStateHandle handle, byte[] header) throws IOException {
        DataInputDeserializer in = new DataInputDeserializer(header);
        try {
            int magic = in.readInt();
            if (magic != KeyedSnapshotWriter.MAGIC) {
                throw new CorruptDataException(String.format("bad magic 0x%08X (expected 0x%08X 'RNKS'): this is not a"
                        + " Runnel keyed-state snapshot, or its first bytes are damaged", magic, KeyedSnapshotWriter.MAGIC));
            }
            int version = in.readInt();
            if (version != KeyedSnapshotWriter.VERSION) {
                throw new CorruptDataException("unsupported format version " + version + " (this reader reads version "
                        + KeyedSnapshotWriter.VERSION + ")");
            }
            int count = readLength(in, "the state count", MIN_STATE_META_BYTES);
            List<StateMetaInfo> states = new ArrayList<>(count);
            for (int i = 0; i < count; i++) {
                String name = readString(in, "the name of state " + i);
                StateKind kind = StateKind.fromCode(in.readUnsignedByte());
                String keySerializer = readString(in, "the key serializer of state '" + name + "'");
                String namespaceSerializer = readString(in, "the namespace serializer of state '" + name + "'");
                String valueSerializer = readString(in, "the value serializer of state '" + name + "'");
                for (StateMetaInfo other : states) {
                    if (other.name().equals(name)) {
                        throw new CorruptDataException("state '" + name + "' appears twice");
                    }
                }
                states.add(new StateMetaInfo(name, kind, keySerializer, namespaceSerializer, valueSerializer));
            }
            return Collections.unmodifiableList(states);
        } catch (EOFException e) {
            throw new HeaderCutShortException(e.getMessage(), e);
        } catch (HeaderCutShortException e) {
            throw e;
        } catch (IOException e) {
            throw corrupt(handle, "header: " + e.getMessage(), e);
        }
    }

    /** The header runs past the bytes read so far: more bytes may complete it. */
    private static final class HeaderCutShortException extends CorruptDataException {
        private static final long serialVersionUID = 1L;

        HeaderCutShortException(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private static int readLength(DataInputDeserializer in, String what, int minBytesEach) throws IOException {
        int start = in.position();
        int length = in.readVarInt();
        if ((long) length * minBytesEach > in.available()) {
            throw new HeaderCutShortException(what + " at position " + start + " claims " + length
                    + " but only " + in.available() + " bytes remain", null);
        }
        return length;
    }

    private static String readString(DataInputDeserializer in, String what) throws IOException {
        int length = readLength(in, what, 1);
        String value = new String(in.array(), in.arrayPosition(), length, StandardCharsets.UTF_8);
        in.skipBytes(length);
        return value;
    }

    /** The handle this reader reads. */
    public KeyGroupsStateHandle getHandle() {
        return handle;
    }

    /** The states of the snapshot, by state index. */
    public List<StateMetaInfo> getStateMetaInfos() {
        return states;
    }

    /** The key groups the snapshot holds. */
    public KeyGroupRange getKeyGroupRange() {
        return offsets.getKeyGroupRange();
    }

    /**
     * Seeks to the block of {@code keyGroup}, reads and verifies it, and returns its sections (one per
     * state with entries in the key group, in snapshot order).
     *
     * @throws IllegalArgumentException if the snapshot does not hold {@code keyGroup}
     * @throws CorruptDataException if the block is truncated or corrupt
     */
    public List<SnapshotSection> readKeyGroup(int keyGroup) throws IOException {
        KeyGroupRange range = offsets.getKeyGroupRange();
        if (!range.contains(keyGroup)) {
            throw new IllegalArgumentException("snapshot " + handle.describe() + " holds " + range
                    + ", not key group " + keyGroup);
        }
        long start = offsets.getKeyGroupOffset(keyGroup);
        if (start < 0 || start + 5 > dataSize) {
            throw corruptBlock(keyGroup, null, "its block would start at byte " + start + " but the snapshot has only "
                    + dataSize + " bytes: the snapshot is truncated");
        }
        long end;
        if (keyGroup < range.getEndKeyGroup()) {
            end = offsets.getKeyGroupOffset(keyGroup + 1);
            if (end > dataSize) {
                // walking the section headers names the state whose section was cut, if any
                walkToBlockEnd(keyGroup, start);
                throw corruptBlock(keyGroup, null, "its block spans bytes [" + start + ", " + end
                        + ") but the snapshot has only " + dataSize + " bytes: the snapshot is truncated");
            }
        } else {
            // The handle may hold a sub-range of the snapshot, so its last block need not end the data.
            end = walkToBlockEnd(keyGroup, start);
        }
        if (end < start + 5 || end - start > Integer.MAX_VALUE) {
            throw corruptBlock(keyGroup, null, "its block spans bytes [" + start + ", " + end
                    + "), which cannot hold a block: the key-group offsets are bogus");
        }
        byte[] block = new byte[(int) (end - start)];
        readFully(channel, start, block, handle, "key group " + keyGroup);
        return parseBlock(keyGroup, block);
    }

    /** Finds where the block at {@code start} ends by reading its section headers only. */
    private long walkToBlockEnd(int keyGroup, long start) throws IOException {
        String state = null;
        try {
            DataInputDeserializer header = readUpTo(start, 4 + 5);
            int storedKeyGroup = header.readInt();
            if (storedKeyGroup != keyGroup) {
                throw new CorruptDataException("the block at its offset belongs to key group " + storedKeyGroup
                        + ": the key-group offsets do not match the snapshot bytes");
            }
            int sectionCount = header.readVarInt();
            if (sectionCount > states.size()) {
                throw new CorruptDataException("bogus section count " + sectionCount + ": the snapshot has only "
                        + states.size() + " states");
            }
            long position = start + header.position();
            for (int s = 0; s < sectionCount; s++) {
                header = readUpTo(position, 5 + 5 + 4 + 4);
                int stateIndex = header.readVarInt();
                state = stateIndex < states.size() ? states.get(stateIndex).name() : null;
                header.readVarInt();
                int length = header.readInt();
                header.readInt();
                long sectionEnd = position + header.position() + length;
                if (length < 0 || sectionEnd > dataSize) {
                    throw new CorruptDataException("section length " + length + " reaches beyond the snapshot's "
                            + dataSize + " bytes: the snapshot is truncated or corrupt");
                }
                position = sectionEnd;
            }
            return position;
        } catch (EOFException e) {
            throw corruptBlock(keyGroup, state, "the snapshot ends inside the block: it is truncated", e);
        } catch (IOException e) {
            throw corruptBlock(keyGroup, state, e.getMessage(), e);
        }
    }

    /** A view of up to {@code max} bytes at {@code position}, fewer where the data ends. */
    private DataInputDeserializer readUpTo(long position, int max) throws IOException {
        int n = (int) Math.min(max, dataSize - position);
        readFully(channel, position, scratch, n, handle, "a block header");
        in.setBuffer(scratch, 0, n);
        return in;
    }

    private List<SnapshotSection> parseBlock(int keyGroup, byte[] block) throws IOException {
        in.setBuffer(block);
        String state = null;
        try {
            int storedKeyGroup = in.readInt();
            if (storedKeyGroup != keyGroup) {
                throw new CorruptDataException("the block at its offset belongs to key group " + storedKeyGroup
                        + ": the key-group offsets do not match the snapshot bytes");
            }
            int sectionCount = in.readLength("the section count", MIN_SECTION_BYTES);
            if (sectionCount > states.size()) {
                throw new CorruptDataException("bogus section count " + sectionCount + ": the snapshot has only "
                        + states.size() + " states");
            }
            List<SnapshotSection> sections = new ArrayList<>(sectionCount);
            boolean[] seen = new boolean[states.size()];
            for (int s = 0; s < sectionCount; s++) {
                int stateIndex = in.readVarInt();
                if (stateIndex >= states.size()) {
                    throw new CorruptDataException("section " + s + " names state index " + stateIndex
                            + " but the snapshot has only " + states.size() + " states");
                }
                StateMetaInfo meta = states.get(stateIndex);
                state = meta.name();
                if (seen[stateIndex]) {
                    throw new CorruptDataException("a second section for the same state");
                }
                seen[stateIndex] = true;
                int entryCount = in.readVarInt();
                int length = in.readInt();
                int storedCrc = in.readInt();
                if (length < 0 || length > in.available()) {
                    throw new CorruptDataException("section length " + length + " is beyond the block's "
                            + in.available() + " remaining bytes: the snapshot is truncated or corrupt");
                }
                if (entryCount == 0 || entryCount > length) {
                    throw new CorruptDataException("bogus entry count " + entryCount + " for a section of "
                            + length + " bytes");
                }
                int offset = in.arrayPosition();
                crc.reset();
                crc.update(block, offset, length);
                int computedCrc = (int) crc.getValue();
                if (computedCrc != storedCrc) {
                    throw new CorruptDataException(String.format("CRC-32C mismatch (stored 0x%08X, computed 0x%08X):"
                            + " the section's %s bytes are corrupt", storedCrc, computedCrc, length));
                }
                in.skipBytes(length);
                sections.add(new SnapshotSection(description, keyGroup, stateIndex, meta, entryCount,
                        block, offset, length));
            }
            state = null;
            if (in.available() != 0) {
                throw new CorruptDataException(in.available() + " unexpected bytes after the last of "
                        + sectionCount + " sections");
            }
            return sections;
        } catch (IOException e) {
            throw corruptBlock(keyGroup, state, e.getMessage(), e);
        }
    }

    @Override
    public void close() throws IOException {
        channel.close();
    }

    // ------------------------------------------------------------------ errors and I/O

    private static final String PREFIX = "Keyed-state snapshot ";

    private static CorruptDataException corrupt(KeyGroupsStateHandle handle, String what) {
        return corrupt(handle, what, null);
    }

    private static CorruptDataException corrupt(KeyGroupsStateHandle handle, String what, Throwable cause) {
        return new CorruptDataException(PREFIX + handle.describe() + " cannot be read: " + what
                + ". Restore from another snapshot.", cause);
    }

    private CorruptDataException corruptBlock(int keyGroup, String state, String what) {
        return corruptBlock(keyGroup, state, what, null);
    }

    private CorruptDataException corruptBlock(int keyGroup, String state, String what, Throwable cause) {
        String where = state == null ? "key group " + keyGroup : "key group " + keyGroup + ", state '" + state + "'";
        return corrupt(handle, where + ": " + what, cause);
    }

    private static void readFully(SeekableByteChannel channel, long position, byte[] target,
            KeyGroupsStateHandle handle, String what) throws IOException {
        readFully(channel, position, target, target.length, handle, what);
    }

    private static void readFully(SeekableByteChannel channel, long position, byte[] target, int length,
            KeyGroupsStateHandle handle, String what) throws IOException {
        channel.position(position);
        ByteBuffer buffer = ByteBuffer.wrap(target, 0, length);
        while (buffer.hasRemaining()) {
            if (channel.read(buffer) < 0) {
                throw corrupt(handle, what + ": the snapshot ends at byte " + (position + buffer.position())
                        + ", before the " + length + " bytes at " + position + " were read: it is truncated");
            }
        }
    }

    private static void closeQuietly(SeekableByteChannel channel, Throwable primary) {
        try {
            channel.close();
        } catch (IOException e) {
            primary.addSuppressed(e);
        }
    }
}
