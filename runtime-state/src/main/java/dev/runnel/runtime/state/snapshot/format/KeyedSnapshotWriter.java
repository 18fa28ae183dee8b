package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.zip.CRC32C;

/**
 * Writes a keyed-state snapshot in Runnel's format (see the {@linkplain dev.runnel.runtime.state.snapshot.format
 * package documentation}): the header with every state's metadata, then one block per key group of a
 * range, each holding one section per state that has entries in that key group.
 *
 * <pre>{@code
 * KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, range, metaInfos);   // writes the header
 * for (int kg : range) {
 *     writer.startKeyGroup(kg);
 *     DataOutputSerializer section = writer.startSection(stateIndex);
 *     KeyedSnapshotWriter.writeBytes(section, keyAndNamespace, 0, keyAndNamespaceLength);
 *     KeyedSnapshotWriter.writeBytes(section, value, 0, valueLength);
 *     writer.endSection(1);                                  // one entry; 0 entries drops the section
 * }
 * KeyGroupRangeOffsets offsets = writer.finish();              // offsets from the first header byte
 * }</pre>
 *
 * Key groups must be started in ascending order; a key group that is skipped gets an empty block, and
 * {@link #finish()} writes the empty blocks of the key groups not started yet, so the snapshot always
 * has one block per key group. Within a key group each state may have at most one section. The
 * caller writes entries into the section buffer in the layout of the state's {@link StateKind};
 * the writer counts, measures and checksums the section. One key group's block is buffered in memory
 * until the next key group starts; nothing else is.
 *
 * <p>Not thread-safe: one thread writes (a snapshot's writing thread, or the task thread). The
 * writer does not close {@code out}.
 */
public final class KeyedSnapshotWriter {

    /** The first four bytes of every snapshot: "RNKS". */
    public static final int MAGIC = 0x524E4B53;

    /** The format version this writer produces and {@link KeyedSnapshotReader} reads. */
    public static final int VERSION = 1;

    private final OutputStream out;
    private final KeyGroupRange range;
    private final List<StateMetaInfo> states;
    private final KeyGroupRangeOffsets offsets;
    private final DataOutputSerializer section = new DataOutputSerializer(4096);
    private final DataOutputSerializer block = new DataOutputSerializer(4096);
    private final DataOutputSerializer blockHeader = new DataOutputSerializer(16);
    private final CRC32C crc = new CRC32C();
    private final boolean[] sectionWritten;

    /** Bytes written to {@code out} so far; offsets are relative to the first of them. */
    private long position;
    /** The key group whose block is being built, or the last one written; start - 1 before the first. */
    private int currentKeyGroup;
    private boolean blockOpen;
    private int sectionCount;
    private int sectionState = -1;
    private boolean finished;

    private KeyedSnapshotWriter(OutputStream out, KeyGroupRange range, List<StateMetaInfo> states) {
        this.out = out;
        this.range = range;
        this.states = states;
        this.offsets = new KeyGroupRangeOffsets(range);
        this.sectionWritten = new boolean[states.size()];
        this.currentKeyGroup = range.getStartKeyGroup() - 1;
    }

    /**
     * Writes the header for {@code states} (state index {@code i} is {@code states.get(i)}) and
     * returns a writer for the blocks of {@code range}.
     *
     * @throws IllegalArgumentException if two states share a name
     */
    public static KeyedSnapshotWriter start(OutputStream out, KeyGroupRange range, List<StateMetaInfo> states)
            throws IOException {
        Objects.requireNonNull(out, "out");
        Objects.requireNonNull(range, "range");
        List<StateMetaInfo> copy = List.copyOf(states);
        long distinct = copy.stream().map(StateMetaInfo::name).distinct().count();
        Preconditions.checkArgument(distinct == copy.size(),
                "every state in a snapshot needs a unique name, got %s", copy);
        KeyedSnapshotWriter writer = new KeyedSnapshotWriter(out, range, copy);
        writer.writeHeader();
        return writer;
    }

    private void writeHeader() throws IOException {
        DataOutputSerializer header = new DataOutputSerializer(256);
        header.writeInt(MAGIC);
        header.writeInt(VERSION);
        header.writeVarInt(states.size());
        for (StateMetaInfo meta : states) {
            writeString(header, meta.name());
            header.writeByte(meta.kind().code());
            writeString(header, meta.keySerializer());
            writeString(header, meta.namespaceSerializer());
            writeString(header, meta.valueSerializer());
        }
        emit(header);
    }

    /** The states of this snapshot, by state index. */
    public List<StateMetaInfo> states() {
        return states;
    }

    /**
     * Starts the block of {@code keyGroup}, ending the open block and writing empty blocks for the
     * key groups in between.
     */
    public void startKeyGroup(int keyGroup) throws IOException {
        checkOpen();
        Preconditions.checkArgument(range.contains(keyGroup), "key group %s is not in the snapshot's %s", keyGroup, range);
        Preconditions.checkArgument(keyGroup > currentKeyGroup,
                "key groups must be written in ascending order, each once: %s after %s", keyGroup, currentKeyGroup);
        Preconditions.checkState(sectionState < 0, "section of state %s still open", sectionState);
        endBlockAndFillUpTo(keyGroup - 1);
        currentKeyGroup = keyGroup;
        blockOpen = true;
        sectionCount = 0;
        block.clear();
        Arrays.fill(sectionWritten, false);
    }

    /**
     * Starts the section of state {@code stateIndex} in the open key group and returns the buffer its
     * entries go into, empty; valid until {@link #endSection(int)}.
     */
    public DataOutputSerializer startSection(int stateIndex) {
        checkSectionStart(stateIndex);
        sectionState = stateIndex;
        section.clear();
        return section;
    }

    /**
     * Ends the open section, which holds {@code entryCount} entries; a section with no entries is
     * dropped (the format has no empty sections), and must then have no bytes either.
     */
    public void endSection(int entryCount) {
        Preconditions.checkState(sectionState >= 0, "no section is open");
        int stateIndex = sectionState;
        sectionState = -1;
        Preconditions.checkArgument(entryCount >= 0, "entry count must be >= 0, was %s", entryCount);
        if (entryCount == 0) {
            Preconditions.checkArgument(section.length() == 0,
                    "section of state '%s' has %s bytes but no entries", states.get(stateIndex).name(), section.length());
            return;
        }
        appendSection(stateIndex, entryCount, section.getSharedBuffer(), 0, section.length());
    }

    /**
     * Adds a finished section to the open key group as it is: for passing on sections read from
     * another snapshot without decoding them ({@code bytes} must be a section of state
     * {@code stateIndex}'s kind holding {@code entryCount >= 1} entries).
     */
    public void writeRawSection(int stateIndex, int entryCount, byte[] bytes, int offset, int length) {
        checkSectionStart(stateIndex);
        Preconditions.checkArgument(entryCount > 0 && entryCount <= length,
                "a raw section needs 1 to %s entries, got %s", length, entryCount);
        appendSection(stateIndex, entryCount, bytes, offset, length);
    }

    /**
     * Ends the open block, writes empty blocks for the remaining key groups of the range, flushes
     * {@code out}, and returns where each key group's block starts, relative to the first header byte.
     */
    public KeyGroupRangeOffsets finish() throws IOException {
        checkOpen();
        Preconditions.checkState(sectionState < 0, "section of state %s still open", sectionState);
        endBlockAndFillUpTo(range.getEndKeyGroup());
        finished = true;
        out.flush();
        return new KeyGroupRangeOffsets(range, offsetsArray());
    }

    /** The number of bytes written so far. */
    public long bytesWritten() {
        return position;
    }

    // ------------------------------------------------------------------ entry encoding helpers

    /** Writes {@code bytes(x)}: the length as a varint, then the bytes. */
    public static void writeBytes(DataOutputSerializer target, byte[] bytes, int offset, int length) {
        target.writeVarInt(length);
        target.write(bytes, offset, length);
    }

    /** Writes {@code bytes(x)} of the content of {@code source}. */
    public static void writeBytes(DataOutputSerializer target, DataOutputSerializer source) {
        writeBytes(target, source.getSharedBuffer(), 0, source.length());
    }

    /** Writes a string as {@code bytes(UTF-8)}. */
    public static void writeString(DataOutputSerializer target, String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        writeBytes(target, utf8, 0, utf8.length);
    }

    // ------------------------------------------------------------------ internals

    private void checkOpen() {
        Preconditions.checkState(!finished, "the snapshot is finished");
    }

    private void checkSectionStart(int stateIndex) {
        checkOpen();
        Preconditions.checkState(blockOpen, "start a key group before its sections");
        Preconditions.checkState(sectionState < 0, "section of state %s still open", sectionState);
        Preconditions.checkArgument(stateIndex >= 0 && stateIndex < states.size(),
                "state index %s outside [0, %s)", stateIndex, states.size());
        Preconditions.checkArgument(!sectionWritten[stateIndex],
                "state '%s' already has a section in key group %s", states.get(stateIndex).name(), currentKeyGroup);
    }

    private void appendSection(int stateIndex, int entryCount, byte[] bytes, int offset, int length) {
        crc.reset();
        crc.update(bytes, offset, length);
        block.writeVarInt(stateIndex);
        block.writeVarInt(entryCount);
        block.writeInt(length);
        block.writeInt((int) crc.getValue());
        block.write(bytes, offset, length);
        sectionWritten[stateIndex] = true;
        sectionCount++;
    }

    /** Writes the open block (if any), then empty blocks for the key groups up to {@code lastKeyGroup}. */
    private void endBlockAndFillUpTo(int lastKeyGroup) throws IOException {
        if (blockOpen) {
            writeBlock(currentKeyGroup);
            blockOpen = false;
        }
        while (currentKeyGroup < lastKeyGroup) {
            currentKeyGroup++;
            sectionCount = 0;
            block.clear();
            writeBlock(currentKeyGroup);
        }
    }

    private void writeBlock(int keyGroup) throws IOException {
        offsets.setKeyGroupOffset(keyGroup, position);
        blockHeader.clear();
        blockHeader.writeInt(keyGroup);
        blockHeader.writeVarInt(sectionCount);
        emit(blockHeader);
        emit(block);
    }

    private void emit(DataOutputSerializer bytes) throws IOException {
        out.write(bytes.getSharedBuffer(), 0, bytes.length());
        position += bytes.length();
    }

    private long[] offsetsArray() {
        long[] result = new long[range.getNumberOfKeyGroups()];
        for (int i = 0; i < result.length; i++) {
            result[i] = offsets.getKeyGroupOffset(range.getKeyGroupId(i));
        }
        return result;
    }
}
