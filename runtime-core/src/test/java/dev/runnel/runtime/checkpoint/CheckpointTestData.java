package dev.runnel.runtime.checkpoint;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle;
import dev.runnel.runtime.state.OperatorStateHandle.StateMetaInfo;
import dev.runnel.runtime.state.OperatorStreamStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.UUID;

/** Builds checkpoints with real state written through a location, for the storage and store tests. */
public final class CheckpointTestData {

    public static final String JOB_ID = "a1b2c3d4e5f60718293a4b5c6d7e8f90";

    /** Blobs of this size end up in files with the tests' threshold of 1 KiB; 10 bytes stay inline. */
    public static final int FILE_SIZE = 5000;

    private CheckpointTestData() {}

    public static byte[] bytes(int size, long seed) {
        byte[] data = new byte[size];
        new Random(seed).nextBytes(data);
        return data;
    }

    public static StreamStateHandle write(CheckpointStreamFactory factory, CheckpointedStateScope scope, byte[] data)
            throws IOException {
        try (CheckpointStateOutputStream out = factory.createCheckpointStateOutputStream(scope)) {
            out.write(data);
            return out.closeAndGetHandle();
        }
    }

    public static byte[] read(StreamStateHandle handle) throws IOException {
        try (SeekableByteChannel channel = handle.openChannel()) {
            ByteBuffer buffer = ByteBuffer.allocate((int) channel.size());
            while (buffer.hasRemaining() && channel.read(buffer) >= 0) {
                // keep reading
            }
            return buffer.array();
        }
    }

    /**
     * A checkpoint with every handle kind: key groups in a file and inline, an incremental snapshot with the
     * given shared files plus a private file and inline meta state, operator state in all three modes, and
     * coordinator state. Files come from {@code location}.
     */
    public static CompletedCheckpoint everyHandleKind(CheckpointStorageLocation location,
            List<HandleAndLocalPath> shared, CheckpointProperties properties) throws IOException {
        KeyGroupRangeOffsets offsets = new KeyGroupRangeOffsets(KeyGroupRange.of(0, 63));
        for (int kg = 0; kg <= 63; kg++) {
            offsets.setKeyGroupOffset(kg, kg * 70L);
        }
        KeyGroupsStateHandle keyedInFile = new KeyGroupsStateHandle(offsets,
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 1)));
        KeyGroupsStateHandle keyedInline = new KeyGroupsStateHandle(
                new KeyGroupRangeOffsets(KeyGroupRange.of(64, 65), new long[] {0, 5}),
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(10, 2)));
        KeyGroupsStateHandle keyedEmpty = new KeyGroupsStateHandle(
                new KeyGroupRangeOffsets(KeyGroupRange.EMPTY_KEY_GROUP_RANGE),
                write(location, CheckpointedStateScope.EXCLUSIVE, new byte[0]));
        IncrementalRemoteKeyedStateHandle incremental = new IncrementalRemoteKeyedStateHandle(
                UUID.fromString("0f0e0d0c-0b0a-0908-0706-050403020100"), KeyGroupRange.of(66, 127),
                location.getCheckpointId(), shared,
                List.of(new HandleAndLocalPath("MANIFEST-000004",
                        write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 3)))),
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(10, 4)));
        OperatorStreamStateHandle operatorState = new OperatorStreamStateHandle(Map.of(
                "splits", new StateMetaInfo(new long[] {0, 17, 34}, OperatorStateHandle.Mode.SPLIT_DISTRIBUTE),
                "union", new StateMetaInfo(new long[] {51}, OperatorStateHandle.Mode.UNION),
                "broadcast", new StateMetaInfo(new long[] {}, OperatorStateHandle.Mode.BROADCAST)),
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 5)));

        OperatorState keyedOperator = new OperatorState("node-3-Sum", 3, 128, Map.of(
                0, new OperatorSubtaskState(List.of(keyedInFile), List.of(), List.of(
                        new dev.runnel.runtime.state.InputChannelStateHandle(0, "edge-0-3", 1, 3,
                                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(10, 7))),
                        new dev.runnel.runtime.state.InputChannelStateHandle(1, "edge-2-3", 0, 40,
                                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 8))))),
                1, new OperatorSubtaskState(List.of(keyedInline, keyedEmpty), List.of()),
                2, new OperatorSubtaskState(List.of(incremental), List.of())), null);
        OperatorState source = new OperatorState("node-0-Source: ünïcødé", 1, 1,
                Map.of(0, new OperatorSubtaskState(List.of(), List.of(operatorState))),
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(10, 6)));
        OperatorState stateless = new OperatorState("node-4-Print", 2, 128, Map.of(), null);
        return new CompletedCheckpoint(JOB_ID, location.getCheckpointId(), 1_000L + location.getCheckpointId(),
                2_000L + location.getCheckpointId(),
                Map.of(keyedOperator.getOperatorID(), keyedOperator, source.getOperatorID(), source,
                        stateless.getOperatorID(), stateless),
                properties, location.getExternalPointer());
    }

    /** A checkpoint whose only state is one incremental snapshot with {@code shared} files. */
    public static CompletedCheckpoint incremental(CheckpointStorageLocation location, List<HandleAndLocalPath> shared)
            throws IOException {
        IncrementalRemoteKeyedStateHandle handle = new IncrementalRemoteKeyedStateHandle(
                UUID.fromString("11111111-2222-3333-4444-555555555555"), KeyGroupRange.of(0, 127),
                location.getCheckpointId(), shared,
                List.of(new HandleAndLocalPath("MANIFEST",
                        write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 7)))),
                write(location, CheckpointedStateScope.EXCLUSIVE, bytes(FILE_SIZE, 8)));
        OperatorState operator = new OperatorState("rocks", 1, 128,
                Map.of(0, new OperatorSubtaskState(List.of(handle), List.of())), null);
        return new CompletedCheckpoint(JOB_ID, location.getCheckpointId(), 1, 2, Map.of("rocks", operator),
                CheckpointProperties.CHECKPOINT, location.getExternalPointer());
    }

}
