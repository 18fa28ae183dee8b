package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.runtime.state.KeyGroupsStateHandle;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The keyed-state snapshot format: writer, reader, entry cursor, handles and metadata checks. */
class KeyedSnapshotFormatTest {

    private static final KeyGroupRange RANGE = KeyGroupRange.of(10, 20);

    private static final List<StateMetaInfo> STATES = List.of(
            new StateMetaInfo("count", StateKind.VALUE, "K", "N", "V"),
            new StateMetaInfo("names", StateKind.LIST, "K", "N", "L"),
            new StateMetaInfo("attrs", StateKind.MAP, "K", "N", "M"),
            new StateMetaInfo("timers", StateKind.PRIORITY_QUEUE, "K", "", "T"));

    /** The snapshot of {@link #writeSample}, with what it holds. */
    private record Sample(byte[] bytes, KeyGroupRangeOffsets offsets) {
        KeyGroupsStateHandle handle() {
            return KeyGroupsStateHandle.inMemory("sample", bytes, offsets);
        }

        KeyGroupsStateHandle handle(byte[] changed) {
            return KeyGroupsStateHandle.inMemory("sample", changed, offsets);
        }
    }

    private static byte[] utf8(String s) {
        return s.getBytes(StandardCharsets.UTF_8);
    }

    private static void bytes(DataOutputSerializer out, String s) {
        byte[] b = utf8(s);
        KeyedSnapshotWriter.writeBytes(out, b, 0, b.length);
    }

    private static String string(SnapshotEntryCursor c, int offset, int length) {
        return new String(c.array(), offset, length, StandardCharsets.UTF_8);
    }

    /**
     * kg 12: count {a=1, b=2}, names {a=[x, y, z]}, attrs {a={k1=v1, k2=null}}; kg 15: count {c=3};
     * kg 18: timers [t1, t2, t3]; the other key groups are empty.
     */
    private static Sample writeSample(OutputStream out) throws IOException {
        KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, RANGE, STATES);
        writer.startKeyGroup(12);
        DataOutputSerializer s = writer.startSection(0);
        bytes(s, "a");
        bytes(s, "1");
        bytes(s, "b");
        bytes(s, "2");
        writer.endSection(2);
        s = writer.startSection(1);
        bytes(s, "a");
        s.writeVarInt(3);
        bytes(s, "x");
        bytes(s, "y");
        bytes(s, "z");
        writer.endSection(1);
        s = writer.startSection(2);
        bytes(s, "a");
        s.writeVarInt(2);
        bytes(s, "k1");
        s.writeBoolean(true);
        bytes(s, "v1");
        bytes(s, "k2");
        s.writeBoolean(false);
        writer.endSection(1);
        s = writer.startSection(3); // no entries: dropped
        writer.endSection(0);
        writer.startKeyGroup(15);
        s = writer.startSection(0);
        bytes(s, "c");
        bytes(s, "3");
        writer.endSection(1);
        writer.startKeyGroup(18);
        s = writer.startSection(3);
        bytes(s, "t1");
        bytes(s, "t2");
        bytes(s, "t3");
        writer.endSection(3);
        KeyGroupRangeOffsets offsets = writer.finish();
        return new Sample(null, offsets);
    }

    private static Sample sample() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Sample written = writeSample(out);
        return new Sample(out.toByteArray(), written.offsets());
    }

    /** Reads everything: every key group, every entry, every part. */
    private static Map<Integer, List<String>> readAll(KeyGroupsStateHandle handle) throws IOException {
        Map<Integer, List<String>> result = new LinkedHashMap<>();
        try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(handle)) {
            for (int kg : reader.getKeyGroupRange()) {
                List<String> entries = new ArrayList<>();
                for (SnapshotSection section : reader.readKeyGroup(kg)) {
                    entries.addAll(describeEntries(section));
                }
                result.put(kg, entries);
            }
        }
        return result;
    }

    private static List<String> describeEntries(SnapshotSection section) throws IOException {
        List<String> entries = new ArrayList<>();
        SnapshotEntryCursor c = section.entries();
        while (c.next()) {
            String key = string(c, c.keyOffset(), c.keyLength());
            StringBuilder sb = new StringBuilder(section.metaInfo().name()).append(':').append(key);
            switch (section.metaInfo().kind()) {
                case VALUE, REDUCING, AGGREGATING -> sb.append('=').append(string(c, c.valueOffset(), c.valueLength()));
                case LIST -> {
                    List<String> elements = new ArrayList<>();
                    for (int i = 0; i < c.size(); i++) {
                        elements.add(string(c, c.elementOffset(i), c.elementLength(i)));
                    }
                    sb.append('=').append(elements);
                }
                case MAP -> {
                    Map<String, String> map = new LinkedHashMap<>();
                    for (int i = 0; i < c.size(); i++) {
                        map.put(string(c, c.userKeyOffset(i), c.userKeyLength(i)),
                                c.hasUserValue(i) ? string(c, c.userValueOffset(i), c.userValueLength(i)) : null);
                    }
                    sb.append('=').append(map);
                }
                case PRIORITY_QUEUE -> { }
            }
            entries.add(sb.toString());
        }
        return entries;
    }

    private static final Map<Integer, List<String>> EXPECTED = expected();

    private static Map<Integer, List<String>> expected() {
        Map<Integer, List<String>> m = new LinkedHashMap<>();
        for (int kg : RANGE) {
            m.put(kg, List.of());
        }
        m.put(12, List.of("count:a=1", "count:b=2", "names:a=[x, y, z]", "attrs:a={k1=v1, k2=null}"));
        m.put(15, List.of("count:c=3"));
        m.put(18, List.of("timers:t1", "timers:t2", "timers:t3"));
        return m;
    }

    /** The [start, end) byte ranges of every section's payload in the sample. */
    private static List<int[]> sectionPayloads(Sample sample) throws IOException {
        List<int[]> result = new ArrayList<>();
        try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle())) {
            for (int kg : RANGE) {
                long blockStart = sample.offsets().getKeyGroupOffset(kg);
                for (SnapshotSection section : reader.readKeyGroup(kg)) {
                    // the section array is the block, read from blockStart
                    int start = (int) (blockStart + section.offset());
                    result.add(new int[] {start, start + section.length(), kg, section.stateIndex()});
                }
            }
        }
        return result;
    }

    @Nested
    class RoundTrip {

        @Test
        void readsBackEveryEntryOfEveryKeyGroup() throws IOException {
            Sample sample = sample();
            assertThat(readAll(sample.handle())).isEqualTo(EXPECTED);
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle())) {
                assertThat(reader.getStateMetaInfos()).isEqualTo(STATES);
                assertThat(reader.getKeyGroupRange()).isEqualTo(RANGE);
                List<SnapshotSection> kg12 = reader.readKeyGroup(12);
                assertThat(kg12).extracting(SnapshotSection::stateIndex).containsExactly(0, 1, 2);
                assertThat(kg12).extracting(SnapshotSection::entryCount).containsExactly(2, 1, 1);
                assertThat(kg12.get(0).describe()).contains("'count'", "key group 12", "sample");
            }
        }

        @Test
        void offsetsAreRelativeToTheFirstSnapshotByteAndAscending() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            out.write(new byte[] {9, 9, 9, 9, 9, 9, 9}); // something written before the snapshot
            Sample written = writeSample(out);
            byte[] all = out.toByteArray();
            byte[] snapshot = Arrays.copyOfRange(all, 7, all.length);
            long previous = -1;
            for (int kg : RANGE) {
                long offset = written.offsets().getKeyGroupOffset(kg);
                assertThat(offset).isGreaterThan(previous);
                previous = offset;
                // each block starts with its key group id
                assertThat(java.nio.ByteBuffer.wrap(snapshot, (int) offset, 4).getInt()).isEqualTo(kg);
            }
            assertThat(readAll(KeyGroupsStateHandle.inMemory("s", snapshot, written.offsets()))).isEqualTo(EXPECTED);
        }

        @Test
        void emptyKeyGroupsHaveEmptyBlocks() throws IOException {
            Sample sample = sample();
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle())) {
                assertThat(reader.readKeyGroup(10)).isEmpty();
                assertThat(reader.readKeyGroup(20)).isEmpty();
            }
            // an empty block is the key group id and a zero section count
            assertThat(sample.offsets().getKeyGroupOffset(11) - sample.offsets().getKeyGroupOffset(10)).isEqualTo(5);
        }

        @Test
        void aSnapshotWithoutStatesOrKeyGroupsIsJustAHeader() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            KeyGroupRangeOffsets offsets = KeyedSnapshotWriter.start(out, KeyGroupRange.EMPTY_KEY_GROUP_RANGE, List.of())
                    .finish();
            assertThat(out.size()).isEqualTo(9);
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(
                    KeyGroupsStateHandle.inMemory("empty", out.toByteArray(), offsets))) {
                assertThat(reader.getStateMetaInfos()).isEmpty();
            }
        }

        @Test
        void readsOnlyTheKeyGroupsAskedFor() throws IOException {
            Sample sample = sample();
            byte[] damaged = sample.bytes().clone();
            // wreck key group 12's block completely; 15 and 18 must still read, by seeking past it
            int start = (int) sample.offsets().getKeyGroupOffset(12);
            int end = (int) sample.offsets().getKeyGroupOffset(13);
            Arrays.fill(damaged, start, end, (byte) 0x5A);
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle(damaged))) {
                assertThat(describeEntries(reader.readKeyGroup(18).get(0))).containsExactly("timers:t1", "timers:t2", "timers:t3");
                assertThat(describeEntries(reader.readKeyGroup(15).get(0))).containsExactly("count:c=3");
                assertThatThrownBy(() -> reader.readKeyGroup(12))
                        .isInstanceOf(CorruptDataException.class).hasMessageContaining("key group 12");
                assertThatThrownBy(() -> reader.readKeyGroup(21))
                        .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("key group 21");
            }
        }

        @Test
        void aSubRangeOfOffsetsRestoresOnlyThoseKeyGroups() throws IOException {
            Sample sample = sample();
            KeyGroupRangeOffsets sub = sample.offsets().intersect(KeyGroupRange.of(14, 16));
            Map<Integer, List<String>> read = readAll(KeyGroupsStateHandle.inMemory("sub", sample.bytes(), sub));
            assertThat(read.keySet()).containsExactly(14, 15, 16);
            assertThat(read.get(15)).containsExactly("count:c=3");
        }

        @Test
        void aLargeHeaderParsesForAHandleOfALaterSubRange() throws IOException {
            List<StateMetaInfo> many = new ArrayList<>();
            for (int i = 0; i < 400; i++) {
                many.add(new StateMetaInfo("state-" + i + "-" + "x".repeat(60), StateKind.VALUE, "K", "N", "V"));
            }
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, KeyGroupRange.of(0, 3), many);
            writer.startKeyGroup(2);
            DataOutputSerializer s = writer.startSection(399);
            bytes(s, "k");
            bytes(s, "v");
            writer.endSection(1);
            KeyGroupRangeOffsets offsets = writer.finish();
            assertThat(offsets.getKeyGroupOffset(0)).isGreaterThan(16 * 1024);
            KeyGroupsStateHandle handle = KeyGroupsStateHandle.inMemory("many", out.toByteArray(),
                    offsets.intersect(KeyGroupRange.of(2, 2)));
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(handle)) {
                assertThat(reader.getStateMetaInfos()).isEqualTo(many);
                assertThat(describeEntries(reader.readKeyGroup(2).get(0))).containsExactly(many.get(399).name() + ":k=v");
            }
        }

        @Test
        void rawSectionsPassThroughIntoAnotherSnapshot(@TempDir Path dir) throws IOException {
            Sample sample = sample();
            Path file = dir.resolve("copy.snapshot");
            KeyGroupRangeOffsets offsets;
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle());
                    OutputStream out = Files.newOutputStream(file)) {
                KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, RANGE, reader.getStateMetaInfos());
                for (int kg : RANGE) {
                    writer.startKeyGroup(kg);
                    for (SnapshotSection section : reader.readKeyGroup(kg)) {
                        writer.writeRawSection(section.stateIndex(), section.entryCount(),
                                section.array(), section.offset(), section.length());
                    }
                }
                offsets = writer.finish();
            }
            assertThat(Files.readAllBytes(file)).isEqualTo(sample.bytes());
            KeyGroupsStateHandle handle = KeyGroupsStateHandle.inFile(file, Files.size(file), offsets);
            assertThat(handle.describe()).contains(file.getFileName().toString());
            assertThat(readAll(handle)).isEqualTo(EXPECTED);
        }
    }

    @Nested
    class Corruption {

        @Test
        void everyTruncationFailsWithAnIOExceptionNamingTheSnapshot() throws IOException {
            Sample sample = sample();
            for (int length = 0; length < sample.bytes().length; length++) {
                byte[] truncated = Arrays.copyOf(sample.bytes(), length);
                try {
                    readAll(sample.handle(truncated));
                    fail("reading a snapshot truncated to " + length + " of " + sample.bytes().length + " bytes succeeded");
                } catch (CorruptDataException e) {
                    assertThat(e.getMessage()).as("truncated to %s", length).contains("'sample'");
                } catch (IOException | RuntimeException e) {
                    throw new AssertionError("truncated to " + length + ": expected a CorruptDataException, got " + e, e);
                }
            }
        }

        @Test
        void aTruncatedFileFailsNamingTheFileAndKeyGroup(@TempDir Path dir) throws IOException {
            Sample sample = sample();
            Path file = dir.resolve("s");
            int cut = (int) sample.offsets().getKeyGroupOffset(15) + 7; // inside key group 15's section header
            Files.write(file, Arrays.copyOf(sample.bytes(), cut));
            // the handle still claims the full size, as a handle of a file that later lost its tail would
            KeyGroupsStateHandle handle = KeyGroupsStateHandle.inFile(file, sample.bytes().length, sample.offsets());
            assertThatThrownBy(() -> readAll(handle))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("truncated");
            KeyGroupsStateHandle honest = KeyGroupsStateHandle.inFile(file, cut, sample.offsets());
            assertThatThrownBy(() -> readAll(honest))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining(file.toString()).hasMessageContaining("key group 15");
        }

        @Test
        void everyFlippedPayloadByteFailsTheChecksumNamingStateAndKeyGroup() throws IOException {
            Sample sample = sample();
            List<int[]> payloads = sectionPayloads(sample);
            assertThat(payloads).hasSize(5);
            for (int[] payload : payloads) {
                String state = STATES.get(payload[3]).name();
                for (int i = payload[0]; i < payload[1]; i++) {
                    byte[] flipped = sample.bytes().clone();
                    flipped[i] ^= 0x01;
                    try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle(flipped))) {
                        assertThatThrownBy(() -> reader.readKeyGroup(payload[2]))
                                .isInstanceOf(CorruptDataException.class)
                                .hasMessageContaining("CRC-32C mismatch")
                                .hasMessageContaining("key group " + payload[2])
                                .hasMessageContaining("'" + state + "'")
                                .hasMessageContaining("'sample'");
                    }
                }
            }
        }

        @Test
        void anyFlippedByteEitherFailsWithAnIOExceptionOrChangesOnlyHeaderText() throws IOException {
            Sample sample = sample();
            for (int i = 0; i < sample.bytes().length; i++) {
                for (int bit = 0; bit < 8; bit++) {
                    byte[] flipped = sample.bytes().clone();
                    flipped[i] ^= (byte) (1 << bit);
                    try {
                        Map<Integer, List<String>> read = readAll(sample.handle(flipped));
                        // only metadata strings are unprotected by a checksum; entries must be intact
                        assertThat(read.values().stream().mapToInt(List::size).sum()).as("byte %s bit %s", i, bit)
                                .isEqualTo(8);
                    } catch (IOException expected) {
                        assertThat(expected).isInstanceOf(CorruptDataException.class);
                    }
                }
            }
        }

        @Test
        void badMagicAndVersionAreNamed() throws IOException {
            Sample sample = sample();
            byte[] magic = sample.bytes().clone();
            magic[0] = 'X';
            assertThatThrownBy(() -> KeyedSnapshotReader.open(sample.handle(magic)))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("bad magic").hasMessageContaining("'sample'");
            byte[] version = sample.bytes().clone();
            version[7] = 9;
            assertThatThrownBy(() -> KeyedSnapshotReader.open(sample.handle(version)))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("version 9");
        }

        @Test
        void aBogusSectionLengthIsNamed() throws IOException {
            Sample sample = sample();
            byte[] bogus = sample.bytes().clone();
            int block = (int) sample.offsets().getKeyGroupOffset(15);
            // block: int kg, varint 1, varint stateIndex 0, varint entryCount 1, int length ...
            int lengthAt = block + 4 + 1 + 1 + 1;
            java.nio.ByteBuffer.wrap(bogus, lengthAt, 4).putInt(1 << 20);
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle(bogus))) {
                assertThatThrownBy(() -> reader.readKeyGroup(15))
                        .isInstanceOf(CorruptDataException.class)
                        .hasMessageContaining("section length 1048576")
                        .hasMessageContaining("'count'").hasMessageContaining("key group 15");
            }
        }

        @Test
        void aBogusEntryCountIsNamed() throws IOException {
            Sample sample = sample();
            byte[] bogus = sample.bytes().clone();
            int block = (int) sample.offsets().getKeyGroupOffset(15);
            bogus[block + 4 + 1 + 1] = 100; // entry count of a 4-byte section
            try (KeyedSnapshotReader reader = KeyedSnapshotReader.open(sample.handle(bogus))) {
                assertThatThrownBy(() -> reader.readKeyGroup(15))
                        .isInstanceOf(CorruptDataException.class)
                        .hasMessageContaining("bogus entry count 100")
                        .hasMessageContaining("'count'");
            }
        }

        @Test
        void entriesThatDoNotFillTheirSectionAreNamedByTheCursor() throws IOException {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(out, KeyGroupRange.of(0, 0), STATES);
            writer.startKeyGroup(0);
            DataOutputSerializer one = new DataOutputSerializer(16);
            bytes(one, "a");
            bytes(one, "1");
            // claims two entries but holds one
            writer.writeRawSection(0, 2, one.getSharedBuffer(), 0, one.length());
            KeyGroupRangeOffsets offsets = writer.finish();
            KeyGroupsStateHandle handle = KeyGroupsStateHandle.inMemory("short", out.toByteArray(), offsets);
            assertThatThrownBy(() -> readAll(handle))
                    .isInstanceOf(CorruptDataException.class)
                    .hasMessageContaining("'count'").hasMessageContaining("key group 0")
                    .hasMessageContaining("entry 1 of 2");
        }
    }

    @Nested
    class WriterContract {

        @Test
        void keyGroupsMustAscendAndLieInTheRange() throws IOException {
            KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(new ByteArrayOutputStream(), RANGE, STATES);
            writer.startKeyGroup(12);
            assertThatThrownBy(() -> writer.startKeyGroup(12)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> writer.startKeyGroup(11)).isInstanceOf(IllegalArgumentException.class);
            assertThatThrownBy(() -> writer.startKeyGroup(21)).hasMessageContaining("not in");
        }

        @Test
        void oneSectionPerStateAndKeyGroup() throws IOException {
            KeyedSnapshotWriter writer = KeyedSnapshotWriter.start(new ByteArrayOutputStream(), RANGE, STATES);
            writer.startKeyGroup(10);
            bytes(writer.startSection(0), "a");
            assertThatThrownBy(() -> writer.startSection(1)).hasMessageContaining("still open");
            writer.endSection(1);
            assertThatThrownBy(() -> writer.startSection(0)).hasMessageContaining("'count' already has a section");
        }

        @Test
        void stateNamesMustBeUnique() {
            List<StateMetaInfo> twice = List.of(STATES.get(0), STATES.get(0));
            assertThatThrownBy(() -> KeyedSnapshotWriter.start(new ByteArrayOutputStream(), RANGE, twice))
                    .hasMessageContaining("unique name");
        }
    }

    @Nested
    class MetaInfo {

        @Test
        void identitiesAreStableAndComposed() {
            ValueStateDescriptor<Long> value = new ValueStateDescriptor<>("v", LongSerializer.INSTANCE);
            StateMetaInfo meta = StateMetaInfo.forKeyedState(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE, value);
            assertThat(meta.kind()).isEqualTo(StateKind.VALUE);
            assertThat(meta.valueSerializer()).contains(LongSerializer.class.getName());
            assertThat(meta.namespaceSerializer()).isEqualTo(VoidNamespaceSerializer.class.getName());
            assertThat(meta).isEqualTo(StateMetaInfo.forKeyedState(StringSerializer.INSTANCE,
                    VoidNamespaceSerializer.INSTANCE, new ValueStateDescriptor<>("v", LongSerializer.INSTANCE)));

            StateMetaInfo list = StateMetaInfo.forKeyedState(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                    new ListStateDescriptor<>("l", IntSerializer.INSTANCE));
            assertThat(list.valueSerializer()).contains("ListSerializer<").contains(IntSerializer.class.getName());
            StateMetaInfo map = StateMetaInfo.forKeyedState(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                    new MapStateDescriptor<>("m", IntSerializer.INSTANCE, StringSerializer.INSTANCE));
            assertThat(map.kind()).isEqualTo(StateKind.MAP);
            StateMetaInfo timers = StateMetaInfo.forPriorityQueue("t", StringSerializer.INSTANCE,
                    new TimerSerializer<>(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE));
            assertThat(timers.valueSerializer()).contains("TimerSerializer<").contains(VoidNamespaceSerializer.class.getName());
            assertThat(timers.namespaceSerializer()).isEmpty();
        }

        @Test
        void aDifferentSerializerOrKindCannotRestoreAndTheMessageNamesBoth() {
            StateMetaInfo now = StateMetaInfo.forKeyedState(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("v", LongSerializer.INSTANCE));
            StateMetaInfo then = StateMetaInfo.forKeyedState(StringSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                    new ValueStateDescriptor<>("v", IntSerializer.INSTANCE));
            now.checkCanRestore(now, "snap");
            assertThatThrownBy(() -> now.checkCanRestore(then, "snap"))
                    .isInstanceOf(IllegalStateException.class)
                    .hasMessageContaining("'v'").hasMessageContaining("snap")
                    .hasMessageContaining(IntSerializer.class.getName())
                    .hasMessageContaining(LongSerializer.class.getName());
            StateMetaInfo list = new StateMetaInfo("v", StateKind.LIST, now.keySerializer(), now.namespaceSerializer(),
                    now.valueSerializer());
            assertThatThrownBy(() -> now.checkCanRestore(list, "snap"))
                    .hasMessageContaining("kind LIST in the snapshot, VALUE now");
        }

        @Test
        void kindBytesMatchTheSpec() throws IOException {
            assertThat(StateKind.values()).extracting(StateKind::code).containsExactly(0, 1, 2, 3, 4, 5);
            assertThat(StateKind.fromCode(5)).isEqualTo(StateKind.PRIORITY_QUEUE);
            assertThatThrownBy(() -> StateKind.fromCode(6)).isInstanceOf(CorruptDataException.class);
        }
    }
}
