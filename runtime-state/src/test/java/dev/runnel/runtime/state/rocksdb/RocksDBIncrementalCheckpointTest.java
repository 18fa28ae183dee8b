package dev.runnel.runtime.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.core.execution.SavepointFormatType;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyGroupsStateHandle;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.state.internal.InternalKvState;
import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Incremental checkpoints and NATIVE savepoints of the RocksDB store, with real RocksDB instances and
 * real files: which SST files are uploaded and reused, restores at the same and other key-group ranges,
 * aborted checkpoints, the local checkpoint folder, and damaged uploads.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class RocksDBIncrementalCheckpointTest {

    private static final int KEY_GROUPS = 128;
    private static final int KEYS = 20_000;
    private static final CheckpointOptions CHECKPOINT = CheckpointOptions.checkpoint(true);

    @TempDir
    Path tmp;

    private TestCheckpointStreams streams;

    private final ValueStateDescriptor<Long> valueDescriptor = new ValueStateDescriptor<>("value", LongSerializer.INSTANCE);
    private final ListStateDescriptor<String> listDescriptor = new ListStateDescriptor<>("list", StringSerializer.INSTANCE);
    private final MapStateDescriptor<String, Integer> mapDescriptor =
            new MapStateDescriptor<>("map", StringSerializer.INSTANCE, IntSerializer.INSTANCE);
    private final ReducingStateDescriptor<Long> sumDescriptor =
            new ReducingStateDescriptor<>("sum", Long::sum, LongSerializer.INSTANCE);

    @BeforeEach
    void setUp() throws IOException {
        streams = new TestCheckpointStreams(tmp.resolve("checkpoints"));
    }

    // ------------------------------------------------------------------ fixtures

    private static Configuration incremental() {
        return new Configuration()
                .setString(RocksDBSettings.INCREMENTAL_CHECKPOINTS.key(), "true")
                .setString("state.backend.rocksdb.memory.managed-size", "32mb");
    }

    private RocksDBKeyedStateBackend<Integer> backend(KeyGroupRange range, Collection<KeyedStateHandle> restore)
            throws Exception {
        return (RocksDBKeyedStateBackend<Integer>) new EmbeddedRocksDBStateBackend().createKeyedStateBackend(
                RocksDBTestBackends.parameters(tmp, IntSerializer.INSTANCE, KEY_GROUPS, range, restore, incremental()));
    }

    private IncrementalRemoteKeyedStateHandle checkpoint(KeyedStateBackend<?> backend, long id) throws IOException {
        return (IncrementalRemoteKeyedStateHandle) backend.snapshotForCheckpoint(id, CHECKPOINT).materialize(streams);
    }

    private static KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<Integer, VoidNamespace>> timers(
            KeyedStateBackend<Integer> backend) {
        return backend.create("_timer_event_test", new TimerSerializer<>(IntSerializer.INSTANCE, VoidNamespaceSerializer.INSTANCE),
                TimerHeapInternalTimer::compareByTimestamp, TimerHeapInternalTimer::getKey);
    }

    private static boolean owns(KeyedStateBackend<?> backend, int key) {
        return backend.getKeyGroupRange().contains(KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS));
    }

    /** 1% of the keys: those that {@link #change} changes. */
    private static boolean changed(int key) {
        return key % 100 == 7;
    }

    /** Fills every state and a timer per key, for the keys the backend owns. */
    private void fill(KeyedStateBackend<Integer> backend) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, mapDescriptor);
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sumDescriptor);
        var queue = timers(backend);
        for (int key = 0; key < KEYS; key++) {
            if (!owns(backend, key)) {
                continue;
            }
            backend.setCurrentKey(key);
            value.update(key * 10L);
            setNamespace(list, "w" + (key % 3));
            list.addAll(List.of("a" + key, "b" + key));
            for (int i = 0; i < key % 4; i++) {
                map.put("k" + i, i == 2 ? null : key + i);
            }
            sum.add((long) key);
            sum.add(1L);
            queue.add(new TimerHeapInternalTimer<>(100_000L - key, key, VoidNamespace.INSTANCE));
        }
    }

    /** Changes 1% of the keys: a new value, one more list element, and a second timer. */
    private void change(KeyedStateBackend<Integer> backend) throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        var queue = timers(backend);
        for (int key = 0; key < KEYS; key++) {
            if (!changed(key) || !owns(backend, key)) {
                continue;
            }
            backend.setCurrentKey(key);
            value.update(key * 10L + 1);
            setNamespace(list, "w" + (key % 3));
            list.add("c" + key);
            queue.add(new TimerHeapInternalTimer<>(200_000L + key, key, VoidNamespace.INSTANCE));
        }
    }

    @SuppressWarnings("unchecked")
    private static <N> void setNamespace(Object state, N namespace) {
        ((InternalKvState<?, N, ?>) state).setCurrentNamespace(namespace);
    }

    /**
     * Checks that {@code backend} holds exactly the keys of its range that {@code sourceRange} covered,
     * with the values {@link #fill} (and {@link #change}, if {@code withChanges}) gave them, and their timers.
     */
    private void verify(KeyedStateBackend<Integer> backend, KeyGroupRange sourceRange, boolean withChanges)
            throws Exception {
        ValueState<Long> value = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, valueDescriptor);
        ListState<String> list = backend.getOrCreateKeyedState(StringSerializer.INSTANCE, listDescriptor);
        MapState<String, Integer> map = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, mapDescriptor);
        ReducingState<Long> sum = backend.getOrCreateKeyedState(VoidNamespaceSerializer.INSTANCE, sumDescriptor);
        var queue = timers(backend);
        List<Long> expectedTimers = new ArrayList<>();
        Set<Integer> expectedKeys = new HashSet<>();
        for (int key = 0; key < KEYS; key++) {
            int keyGroup = KeyGroupRangeAssignment.assignToKeyGroup(key, KEY_GROUPS);
            if (!backend.getKeyGroupRange().contains(keyGroup) || !sourceRange.contains(keyGroup)) {
                continue;
            }
            expectedKeys.add(key);
            boolean isChanged = withChanges && changed(key);
            backend.setCurrentKey(key);
            expectedTimers.add(100_000L - key);
            if (isChanged) {
                expectedTimers.add(200_000L + key);
            }
            assertThat(value.value()).as("value of key %s", key).isEqualTo(key * 10L + (isChanged ? 1 : 0));
            setNamespace(list, "w" + (key % 3));
            List<String> expectedList = new ArrayList<>(List.of("a" + key, "b" + key));
            if (isChanged) {
                expectedList.add("c" + key);
            }
            assertThat(list.get()).as("list of key %s", key).containsExactlyElementsOf(expectedList);
            Map<String, Integer> expectedMap = new TreeMap<>();
            for (int i = 0; i < key % 4; i++) {
                expectedMap.put("k" + i, i == 2 ? null : key + i);
            }
            Map<String, Integer> actualMap = new TreeMap<>();
            map.entries().forEach(e -> actualMap.put(e.getKey(), e.getValue()));
            assertThat(actualMap).as("map of key %s", key).isEqualTo(expectedMap);
            assertThat(sum.get()).as("sum of key %s", key).isEqualTo(key + 1L);
        }
        assertThat(expectedKeys).isNotEmpty();
        // Exactly the owned keys: no entry of a key group outside the backend's range survived the restore.
        assertThat(backend.getKeys("value", VoidNamespace.INSTANCE).collect(Collectors.toSet()))
                .isEqualTo(expectedKeys);
        assertThat(allKeyGroupsIn((RocksDBKeyedStateBackend<Integer>) backend)).allMatch(
                kg -> backend.getKeyGroupRange().contains(kg));
        expectedTimers.sort(null);
        assertThat(queue.size()).isEqualTo(expectedTimers.size());
        List<Long> polled = new ArrayList<>();
        TimerHeapInternalTimer<Integer, VoidNamespace> timer;
        while ((timer = queue.poll()) != null) {
            polled.add(timer.getTimestamp());
            assertThat(owns(backend, timer.getKey())).isTrue();
        }
        assertThat(polled).isEqualTo(expectedTimers);
    }

    /** The key groups of every entry in every column family of {@code backend}, read from RocksDB directly. */
    private static Set<Integer> allKeyGroupsIn(RocksDBKeyedStateBackend<Integer> backend) throws Exception {
        Set<Integer> keyGroups = new HashSet<>();
        var instance = backend.instance();
        for (String name : List.of("value", "list", "map", "sum", "_timer_event_test")) {
            var handle = instance.existingColumnFamily(name);
            if (handle == null) {
                continue;
            }
            try (var iterator = instance.db().newIterator(handle)) {
                for (iterator.seekToFirst(); iterator.isValid(); iterator.next()) {
                    keyGroups.add(RocksDBKeyBuilder.readKeyGroup(iterator.key()));
                }
            }
        }
        return keyGroups;
    }

    private static Map<String, StreamStateHandle> sharedByName(IncrementalRemoteKeyedStateHandle handle) {
        Map<String, StreamStateHandle> files = new HashMap<>();
        for (HandleAndLocalPath file : handle.getSharedState()) {
            files.put(file.localPath(), file.handle());
        }
        return files;
    }

    private static long folderCount(RocksDBKeyedStateBackend<?> backend) throws IOException {
        try (var files = Files.list(backend.workingDirectory())) {
            return files.filter(p -> p.getFileName().toString().startsWith("file-checkpoint-")).count();
        }
    }

    // ------------------------------------------------------------------ uploads

    @Test
    void uploadsOnlyNewSstFilesAfterACompletedCheckpoint() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            IncrementalRemoteKeyedStateHandle first = checkpoint(backend, 1);
            assertThat(first.getBackendIdentifier()).isEqualTo(backend.backendIdentifier());
            assertThat(first.getCheckpointId()).isEqualTo(1);
            assertThat(first.getKeyGroupRange()).isEqualTo(KeyGroupRange.of(0, 127));
            assertThat(first.getSharedState()).isNotEmpty().allMatch(f -> f.localPath().endsWith(".sst"));
            assertThat(first.getPrivateState()).extracting(HandleAndLocalPath::localPath)
                    .noneMatch(name -> name.endsWith(".sst"))
                    .anyMatch(name -> name.startsWith("MANIFEST")).contains("CURRENT");
            // Every SST file went up as a SHARED stream, everything else (and the meta data) as EXCLUSIVE.
            assertThat(streams.written(CheckpointedStateScope.SHARED))
                    .containsExactlyInAnyOrderElementsOf(sharedByName(first).values());
            assertThat(streams.written(CheckpointedStateScope.EXCLUSIVE)).hasSize(first.getPrivateState().size() + 1)
                    .contains(first.getMetaStateHandle());
            backend.notifyCheckpointComplete(1);

            change(backend);
            streams.resetCounts();
            IncrementalRemoteKeyedStateHandle second = checkpoint(backend, 2);
            Map<String, StreamStateHandle> before = sharedByName(first);
            Map<String, StreamStateHandle> after = sharedByName(second);
            Set<String> kept = new HashSet<>(after.keySet());
            kept.retainAll(before.keySet());
            Set<String> added = new HashSet<>(after.keySet());
            added.removeAll(before.keySet());
            assertThat(kept).as("SST files of checkpoint 1 still in the database").isNotEmpty();
            assertThat(added).as("SST files the changes were flushed into").isNotEmpty();
            for (String name : kept) {
                assertThat(after.get(name)).as(name).isSameAs(before.get(name));
            }
            // Only the new files were uploaded, and they are much smaller than the first checkpoint.
            assertThat(streams.written(CheckpointedStateScope.SHARED))
                    .containsExactlyInAnyOrderElementsOf(added.stream().map(after::get).toList());
            long firstSstBytes = first.getSharedState().stream().mapToLong(f -> f.handle().getStateSize()).sum();
            assertThat(streams.bytes(CheckpointedStateScope.SHARED)).isLessThan(firstSstBytes / 5);
        }
    }

    @Test
    void abortedCheckpointsUploadsAreNotReused() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            IncrementalRemoteKeyedStateHandle first = checkpoint(backend, 1);
            backend.notifyCheckpointAborted(1);
            IncrementalRemoteKeyedStateHandle second = checkpoint(backend, 2);
            // Nothing confirmed: every SST file is uploaded again, no handle of checkpoint 1 is referred to.
            assertThat(sharedByName(second).keySet()).containsAll(sharedByName(first).keySet());
            assertThat(sharedByName(second).values()).doesNotContainAnyElementsOf(sharedByName(first).values());
            backend.notifyCheckpointComplete(2);

            change(backend);
            IncrementalRemoteKeyedStateHandle third = checkpoint(backend, 3);
            // Aborted while its upload ran: the abort arrives between the sync phase and the upload's end.
            change(backend);
            KeyedStateSnapshot fourthSnapshot = backend.snapshotForCheckpoint(4, CHECKPOINT);
            backend.notifyCheckpointAborted(3);
            backend.notifyCheckpointAborted(4);
            IncrementalRemoteKeyedStateHandle fourth = (IncrementalRemoteKeyedStateHandle) fourthSnapshot.materialize(streams);
            streams.resetCounts();
            IncrementalRemoteKeyedStateHandle fifth = checkpoint(backend, 5);
            Map<String, StreamStateHandle> confirmed = sharedByName(second);
            for (HandleAndLocalPath file : fifth.getSharedState()) {
                if (confirmed.containsKey(file.localPath())) {
                    assertThat(file.handle()).as(file.localPath()).isSameAs(confirmed.get(file.localPath()));
                } else {
                    // A file first uploaded by aborted checkpoint 3 or 4 is uploaded again.
                    assertThat(file.handle()).isNotIn(sharedByName(third).values())
                            .isNotIn(sharedByName(fourth).values());
                    assertThat(streams.written(CheckpointedStateScope.SHARED)).contains(file.handle());
                }
            }
            assertThat(sharedByName(fifth).keySet()).as("files added by aborted checkpoints")
                    .containsAnyElementsOf(sharedByName(third).keySet().stream()
                            .filter(n -> !confirmed.containsKey(n)).toList());
        }
    }

    @Test
    void aLateCompletionOfAnOlderCheckpointKeepsTheNewerConfirmation() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            checkpoint(backend, 1);
            IncrementalRemoteKeyedStateHandle second = checkpoint(backend, 2);
            backend.notifyCheckpointComplete(2);
            backend.notifyCheckpointComplete(1);
            assertThat(backend.uploads().confirmedId()).isEqualTo(2);
            assertThat(backend.uploads().confirmed().keySet()).isEqualTo(sharedByName(second).keySet());
            // A completed savepoint subsumes no checkpoint: the confirmation stays.
            backend.snapshotForCheckpoint(3, CheckpointOptions.savepoint(SavepointFormatType.CANONICAL)).release();
            backend.notifyCheckpointComplete(3);
            assertThat(backend.uploads().confirmedId()).isEqualTo(2);
            // A checkpoint the backend took no part in may subsume checkpoint 2: nothing is reused after it.
            backend.notifyCheckpointComplete(4);
            assertThat(backend.uploads().confirmed()).isEmpty();
        }
    }

    @Test
    void localCheckpointFolderIsGoneAfterUploadAfterReleaseAndAfterClose() throws Exception {
        RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of());
        try {
            fill(backend);
            RocksDBIncrementalSnapshot uploaded = (RocksDBIncrementalSnapshot) backend.snapshotForCheckpoint(1, CHECKPOINT);
            assertThat(uploaded.checkpointPath()).isDirectory();
            uploaded.materialize(streams);
            assertThat(uploaded.checkpointPath()).doesNotExist();

            RocksDBIncrementalSnapshot released = (RocksDBIncrementalSnapshot) backend.snapshotForCheckpoint(2, CHECKPOINT);
            assertThat(released.checkpointPath()).isDirectory();
            released.release();
            assertThat(released.checkpointPath()).doesNotExist();
            assertThatThrownBy(() -> released.materialize(streams)).isInstanceOf(IOException.class)
                    .hasMessageContaining("released");

            RocksDBIncrementalSnapshot pending = (RocksDBIncrementalSnapshot) backend.snapshotForCheckpoint(3, CHECKPOINT);
            assertThat(folderCount(backend)).isEqualTo(1);
            backend.close();
            assertThat(pending.checkpointPath()).doesNotExist();
            assertThat(backend.pendingSnapshotCount()).isZero();
        } finally {
            backend.close();
        }
    }

    // ------------------------------------------------------------------ restore

    @Test
    void restoresEveryStateAndTheTimersFromTheSecondCheckpoint() throws Exception {
        IncrementalRemoteKeyedStateHandle second;
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            checkpoint(backend, 1);
            backend.notifyCheckpointComplete(1);
            change(backend);
            second = checkpoint(backend, 2);
            backend.notifyCheckpointComplete(2);
            change(backend); // after the checkpoint: not in it
        }
        try (RocksDBKeyedStateBackend<Integer> restored = backend(KeyGroupRange.of(0, 127), List.of(second))) {
            assertThat(restored.backendIdentifier()).isNotEqualTo(second.getBackendIdentifier());
            verify(restored, KeyGroupRange.of(0, 127), true);
            // The restored store checkpoints again (from its own files, under its own identity).
            IncrementalRemoteKeyedStateHandle next = checkpoint(restored, 3);
            assertThat(next.getBackendIdentifier()).isEqualTo(restored.backendIdentifier());
        }
    }

    @Test
    void restoresHalfTheKeyGroupsWhenScalingOut() throws Exception {
        IncrementalRemoteKeyedStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            checkpoint(backend, 1);
            backend.notifyCheckpointComplete(1);
            change(backend);
            handle = checkpoint(backend, 2);
        }
        try (RocksDBKeyedStateBackend<Integer> left = backend(KeyGroupRange.of(0, 63), List.of(handle));
                RocksDBKeyedStateBackend<Integer> right = backend(KeyGroupRange.of(64, 127), List.of(handle))) {
            verify(left, KeyGroupRange.of(0, 127), true);
            verify(right, KeyGroupRange.of(0, 127), true);
        }
    }

    @Test
    void mergesTwoHandlesWhenScalingIn() throws Exception {
        List<KeyedStateHandle> handles = new ArrayList<>();
        for (KeyGroupRange range : List.of(KeyGroupRange.of(0, 63), KeyGroupRange.of(64, 127))) {
            try (RocksDBKeyedStateBackend<Integer> source = backend(range, List.of())) {
                fill(source);
                handles.add(checkpoint(source, 1));
            }
        }
        try (RocksDBKeyedStateBackend<Integer> all = backend(KeyGroupRange.of(0, 127), handles)) {
            verify(all, KeyGroupRange.of(0, 127), false);
        }
        // A range inside neither handle: one is opened and clipped, the other's owned part copied in.
        try (RocksDBKeyedStateBackend<Integer> middle = backend(KeyGroupRange.of(40, 100), handles)) {
            verify(middle, KeyGroupRange.of(0, 127), false);
            assertThat(middle.workingDirectory().resolve("restore-1")).doesNotExist();
        }
    }

    @Test
    void nativeSavepointIsSelfContainedAndRestores() throws Exception {
        KeyedStateHandle savepoint;
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            checkpoint(backend, 1);
            backend.notifyCheckpointComplete(1);
            streams.resetCounts();
            savepoint = backend.snapshotForCheckpoint(2, CheckpointOptions.savepoint(SavepointFormatType.NATIVE))
                    .materialize(streams);
            IncrementalRemoteKeyedStateHandle files = (IncrementalRemoteKeyedStateHandle) savepoint;
            assertThat(files.getSharedState()).isEmpty();
            assertThat(files.getPrivateState()).anyMatch(f -> f.localPath().endsWith(".sst"));
            assertThat(streams.written(CheckpointedStateScope.SHARED)).isEmpty();
            // Nothing of checkpoint 1 is referred to.
            assertThat(streams.written(CheckpointedStateScope.EXCLUSIVE))
                    .containsAll(files.getPrivateState().stream().map(HandleAndLocalPath::handle).toList());
            backend.notifyCheckpointComplete(2);
            assertThat(backend.uploads().confirmedId()).isEqualTo(1);

            KeyedStateHandle canonical = backend.snapshotForCheckpoint(3,
                    CheckpointOptions.savepoint(SavepointFormatType.CANONICAL)).materialize(streams);
            assertThat(canonical).isInstanceOf(KeyGroupsStateHandle.class);
        }
        try (RocksDBKeyedStateBackend<Integer> restored = backend(KeyGroupRange.of(0, 127), List.of(savepoint))) {
            verify(restored, KeyGroupRange.of(0, 127), false);
        }
    }

    @Test
    void aRescaleHandoverLeavesTheFilesLocalAndTheNewStoresLinkThem() throws Exception {
        List<IncrementalRemoteKeyedStateHandle> handles = new ArrayList<>();
        List<Path> folders = new ArrayList<>();
        for (KeyGroupRange range : List.of(KeyGroupRange.of(0, 63), KeyGroupRange.of(64, 127))) {
            try (RocksDBKeyedStateBackend<Integer> old = backend(range, List.of())) {
                fill(old);
                streams.resetCounts();
                IncrementalRemoteKeyedStateHandle handle = (IncrementalRemoteKeyedStateHandle) old
                        .snapshotForCheckpoint(5, CheckpointOptions.rescaleHandover()).materialize(streams);
                assertThat(streams.written(CheckpointedStateScope.EXCLUSIVE)).as("nothing copied").isEmpty();
                assertThat(streams.written(CheckpointedStateScope.SHARED)).isEmpty();
                assertThat(handle.getSharedState()).isEmpty();
                RocksDBHandoverMeta meta = (RocksDBHandoverMeta) handle.getMetaStateHandle();
                Path folder = meta.folder();
                // The values written last are still in the value cache: they travel beside the files.
                assertThat(meta.cacheEntries().length).as("dirty cache entries handed over").isGreaterThan(1000);
                assertThat(folder.getParent()).isEqualTo(old.workingDirectory().getParent());
                assertThat(handle.getPrivateState()).anyMatch(f -> f.localPath().endsWith(".sst"))
                        .allSatisfy(f -> assertThat(((FileStateHandle) f.handle()).getFilePath().getParent())
                                .isEqualTo(folder));
                handles.add(handle);
                folders.add(folder);
            }
            assertThat(folders.get(folders.size() - 1)).as("the old store's close leaves the handover").isDirectory();
        }
        Set<Object> handedOver = new HashSet<>();
        for (Path folder : folders) {
            handedOver.addAll(sstInodes(folder));
        }
        List<KeyedStateHandle> restore = List.copyOf(handles);
        // Scaling out (a half of one old range) and in (parts of both: one linked and clipped, one copied from).
        try (RocksDBKeyedStateBackend<Integer> quarter = backend(KeyGroupRange.of(0, 31), restore);
                RocksDBKeyedStateBackend<Integer> middle = backend(KeyGroupRange.of(32, 100), restore)) {
            assertThat(sstInodes(quarter.workingDirectory())).as("hard links of the handed-over files")
                    .isNotEmpty().isSubsetOf(handedOver);
            assertThat(sstInodes(middle.workingDirectory())).containsAnyElementsOf(handedOver);
            for (IncrementalRemoteKeyedStateHandle handle : handles) {
                handle.discardState();
            }
            assertThat(folders).allSatisfy(folder -> assertThat(folder).doesNotExist());
            verify(quarter, KeyGroupRange.of(0, 127), false);
            verify(middle, KeyGroupRange.of(0, 127), false);
        }
    }

    @Test
    void aHandoverWhoseFilesAreGoneFailsTheRestoreNamingThem() throws Exception {
        IncrementalRemoteKeyedStateHandle handle;
        try (RocksDBKeyedStateBackend<Integer> old = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(old);
            handle = (IncrementalRemoteKeyedStateHandle) old.snapshotForCheckpoint(5,
                    CheckpointOptions.rescaleHandover()).materialize(streams);
        }
        handle.discardState();
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 63), List.of(handle)))
                .hasMessageContaining("cannot take over file").hasMessageContaining("handed-over files are gone");
    }

    /** The inodes of the SST files directly in {@code folder}. */
    private static Set<Object> sstInodes(Path folder) throws IOException {
        Set<Object> inodes = new HashSet<>();
        try (var files = Files.list(folder)) {
            for (Path file : files.filter(f -> f.getFileName().toString().endsWith(".sst")).toList()) {
                inodes.add(Files.getAttribute(file, "unix:ino"));
            }
        }
        return inodes;
    }

    @Test
    void checkpointsAreCanonicalWhenIncrementalIsOff() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = (RocksDBKeyedStateBackend<Integer>) new EmbeddedRocksDBStateBackend()
                .createKeyedStateBackend(RocksDBTestBackends.parameters(tmp, IntSerializer.INSTANCE, KEY_GROUPS,
                        KeyGroupRange.of(0, 127), List.of(), new Configuration()))) {
            fill(backend);
            assertThat(backend.snapshotForCheckpoint(1, CHECKPOINT).materialize(streams))
                    .isInstanceOf(KeyGroupsStateHandle.class);
        }
    }

    @Test
    void aFileSnapshotCanAlsoBeWrittenCanonically() throws Exception {
        KeyGroupsStateHandle canonical;
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            KeyedStateSnapshot snapshot = backend.snapshotForCheckpoint(1, CHECKPOINT);
            var out = new java.io.ByteArrayOutputStream();
            var offsets = snapshot.writeTo(out);
            canonical = KeyGroupsStateHandle.inMemory("canonical", out.toByteArray(), offsets);
        }
        try (RocksDBKeyedStateBackend<Integer> restored = backend(KeyGroupRange.of(0, 63), List.of(canonical))) {
            verify(restored, KeyGroupRange.of(0, 127), false);
        }
    }

    // ------------------------------------------------------------------ failures

    @Test
    void aMissingSstFileFailsTheRestoreNamingIt() throws Exception {
        IncrementalRemoteKeyedStateHandle handle = filledCheckpoint();
        HandleAndLocalPath victim = handle.getSharedState().get(0);
        Files.delete(((FileStateHandle) victim.handle()).getFilePath());
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 127), List.of(handle)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("Test Operator")
                .hasMessageContaining("file " + victim.localPath())
                .hasMessageContaining("NoSuchFileException")
                .hasMessageContaining("restore from another checkpoint");
        assertThat(workingDirectories()).isEmpty();
    }

    @Test
    void aDamagedSstFileFailsTheRestoreNamingIt() throws Exception {
        IncrementalRemoteKeyedStateHandle handle = filledCheckpoint();
        HandleAndLocalPath victim = handle.getSharedState().get(handle.getSharedState().size() - 1);
        try (RandomAccessFile file = new RandomAccessFile(((FileStateHandle) victim.handle()).getFilePath().toFile(), "rw")) {
            file.seek(file.length() / 2);
            int b = file.read();
            file.seek(file.length() / 2);
            file.write(b ^ 0xFF);
        }
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 127), List.of(handle)))
                .isInstanceOf(IOException.class)
                .hasMessageContaining("file " + victim.localPath())
                .hasMessageContaining("damaged");
        assertThat(workingDirectories()).isEmpty();
    }

    @Test
    void mixedCanonicalAndFileSnapshotsAreRefused() throws Exception {
        IncrementalRemoteKeyedStateHandle handle = filledCheckpoint();
        KeyedStateHandle canonical = KeyGroupsStateHandle.inMemory("canonical part", new byte[0],
                new dev.runnel.runtime.state.KeyGroupRangeOffsets(KeyGroupRange.of(64, 127)));
        assertThatThrownBy(() -> backend(KeyGroupRange.of(0, 127), List.of(handle, canonical)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("file-based snapshot, the second a canonical one")
                .hasMessageContaining("canonical part");
    }

    @Test
    void theHeapStoreRefusesAFileSnapshotWithAMessage() throws Exception {
        IncrementalRemoteKeyedStateHandle handle = filledCheckpoint();
        assertThatThrownBy(() -> new HashMapStateBackend().createKeyedStateBackend(RocksDBTestBackends.parameters(
                tmp, IntSerializer.INSTANCE, KEY_GROUPS, KeyGroupRange.of(0, 127), List.of(handle), new Configuration())))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("The heap store cannot restore incremental RocksDB snapshot of checkpoint 1")
                .hasMessageContaining("IncrementalRemoteKeyedStateHandle")
                .hasMessageContaining("take a savepoint in the CANONICAL format");
    }

    private IncrementalRemoteKeyedStateHandle filledCheckpoint() throws Exception {
        try (RocksDBKeyedStateBackend<Integer> backend = backend(KeyGroupRange.of(0, 127), List.of())) {
            fill(backend);
            return checkpoint(backend, 1);
        }
    }

    private List<Path> workingDirectories() throws IOException {
        Path local = tmp.resolve("local");
        if (!Files.exists(local)) {
            return List.of();
        }
        try (var files = Files.list(local)) {
            return files.filter(p -> p.getFileName().toString().startsWith("rocksdb-")).toList();
        }
    }
}
