package dev.runnel.runtime.state;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** List, union list and broadcast operator state through a snapshot and back. */
class DefaultOperatorStateBackendTest {

    private static final ListStateDescriptor<Long> SPLITS = new ListStateDescriptor<>("splits", LongSerializer.INSTANCE);
    private static final ListStateDescriptor<String> UNION = new ListStateDescriptor<>("union", StringSerializer.INSTANCE);
    private static final MapStateDescriptor<String, Integer> RULES =
            new MapStateDescriptor<>("rules", StringSerializer.INSTANCE, IntSerializer.INSTANCE);

    @Test
    void everyKindOfStateRestoresExactly() throws Exception {
        DefaultOperatorStateBackend backend = backend(List.of());
        backend.getListState(SPLITS).update(List.of(1L, 2L, 3L));
        backend.getUnionListState(UNION).add("a");
        BroadcastState<String, Integer> rules = backend.getBroadcastState(RULES);
        rules.put("x", 1);
        rules.put("y", 2);

        OperatorStateHandle handle = snapshot(backend);
        assertThat(handle.getStateNameToPartitionOffsets()).containsOnlyKeys("splits", "union", "rules");
        assertThat(handle.getStateNameToPartitionOffsets().get("splits").offsets()).hasSize(3);
        assertThat(handle.getStateNameToPartitionOffsets().get("rules").distributionMode())
                .isEqualTo(OperatorStateHandle.Mode.BROADCAST);

        DefaultOperatorStateBackend restored = backend(List.of(handle));
        assertThat(restored.getListState(SPLITS).get()).containsExactly(1L, 2L, 3L);
        assertThat(restored.getUnionListState(UNION).get()).containsExactly("a");
        assertThat(restored.getBroadcastState(RULES).immutableEntries())
                .extracting(Map.Entry::getKey).containsExactlyInAnyOrder("x", "y");
    }

    @Test
    void theSnapshotIsTheStateWhenItWasTaken() throws Exception {
        DefaultOperatorStateBackend backend = backend(List.of());
        ListState<Long> splits = backend.getListState(SPLITS);
        splits.add(10L);
        OperatorStateSnapshot snapshot = backend.snapshotSync();
        splits.add(11L);
        OperatorStateHandle handle = snapshot.materialize(new MemoryStreams());
        assertThat(backend(List.of(handle)).getListState(SPLITS).get()).containsExactly(10L);
    }

    @Test
    void aRestoreReadsOnlyTheElementsItsHandleLists() throws Exception {
        DefaultOperatorStateBackend backend = backend(List.of());
        backend.getListState(SPLITS).update(List.of(5L, 6L, 7L, 8L));
        OperatorStateHandle whole = snapshot(backend);
        long[] offsets = whole.getStateNameToPartitionOffsets().get("splits").offsets();
        // What a rescale hands one of two new subtasks: every other element, by offset only.
        OperatorStateHandle half = new OperatorStreamStateHandle(Map.of("splits",
                new OperatorStateHandle.StateMetaInfo(new long[] {offsets[0], offsets[2]},
                        OperatorStateHandle.Mode.SPLIT_DISTRIBUTE)), whole.getDelegateStateHandle());
        assertThat(backend(List.of(half)).getListState(SPLITS).get()).containsExactly(5L, 7L);
        // Two old subtasks' handles merge into one list.
        assertThat(backend(List.of(half, whole)).getListState(SPLITS).get()).containsExactly(5L, 7L, 5L, 6L, 7L, 8L);
    }

    @Test
    void registeringAStateOtherwiseThanItWasWrittenFailsNamingIt() throws Exception {
        DefaultOperatorStateBackend backend = backend(List.of());
        backend.getListState(SPLITS).add(1L);
        OperatorStateHandle handle = snapshot(backend);
        assertThatThrownBy(() -> backend(List.of(handle)).getUnionListState(
                new ListStateDescriptor<>("splits", LongSerializer.INSTANCE)))
                .hasMessageContaining("'splits'").hasMessageContaining("union list state");
        assertThatThrownBy(() -> backend(List.of(handle)).getListState(
                new ListStateDescriptor<>("splits", StringSerializer.INSTANCE)))
                .hasMessageContaining("'splits'").hasMessageContaining(LongSerializer.class.getName())
                .hasMessageContaining(StringSerializer.class.getName());
    }

    @Test
    void aForeignOrTruncatedBlobIsCorruptData() throws Exception {
        DefaultOperatorStateBackend backend = backend(List.of());
        backend.getListState(SPLITS).add(1L);
        OperatorStateHandle handle = snapshot(backend);
        byte[] bytes = ((ByteStreamStateHandle) handle.getDelegateStateHandle()).getData().clone();
        bytes[0] = 0;
        OperatorStateHandle foreign = new OperatorStreamStateHandle(handle.getStateNameToPartitionOffsets(),
                new ByteStreamStateHandle("foreign", bytes));
        assertThatThrownBy(() -> backend(List.of(foreign))).isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("foreign").hasMessageContaining("magic");
        OperatorStateHandle cut = new OperatorStreamStateHandle(handle.getStateNameToPartitionOffsets(),
                new ByteStreamStateHandle("cut", java.util.Arrays.copyOf(bytes, 6)));
        assertThatThrownBy(() -> backend(List.of(cut))).isInstanceOf(CorruptDataException.class);
    }

    @Test
    void anOperatorWithoutStateWritesNothing() throws Exception {
        assertThat(backend(List.of()).snapshotSync().materialize(new MemoryStreams())).isNull();
    }

    private static DefaultOperatorStateBackend backend(List<OperatorStateHandle> restored) throws IOException {
        return new DefaultOperatorStateBackend("test operator", new SerializerConfig(), new ArrayList<>(restored));
    }

    private static OperatorStateHandle snapshot(DefaultOperatorStateBackend backend) throws IOException {
        return backend.snapshotSync().materialize(new MemoryStreams());
    }

    /** Blobs in memory. */
    private static final class MemoryStreams implements CheckpointStreamFactory {
        @Override
        public CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope) {
            ByteArrayOutputStream bytes = new ByteArrayOutputStream();
            return new CheckpointStateOutputStream() {
                @Override
                public void write(int b) {
                    bytes.write(b);
                }

                @Override
                public long getPos() {
                    return bytes.size();
                }

                @Override
                public StreamStateHandle closeAndGetHandle() {
                    return new ByteStreamStateHandle("test", bytes.toByteArray());
                }

                @Override
                public void close() {}
            };
        }
    }
}
