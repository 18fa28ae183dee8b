package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.CheckpointStateOutputStream;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import dev.runnel.runtime.state.CheckpointedStateScope;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle;
import dev.runnel.runtime.state.IncrementalRemoteKeyedStateHandle.HandleAndLocalPath;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.backend.AbstractKeyedStateSnapshot;
import dev.runnel.runtime.state.snapshot.format.StateMetaInfo;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import dev.runnel.runtime.state.snapshot.FileStateHandle;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.stream.Stream;
import java.util.zip.CRC32C;
import org.rocksdb.ColumnFamilyOptions;

/**
 * A RocksDB backend's state at one checkpoint as database files: a RocksDB checkpoint (every memtable
 * flushed, after the pending timer writes and the value cache's dirty entries went into RocksDB, and the
 * files hard-linked into a folder of the working directory), which {@link #materialize} uploads.
 *
 * <pre>
 *   rocksdb-&lt;operator&gt;-&lt;subtask&gt;-&lt;random&gt;/           the live database
 *     file-checkpoint-&lt;checkpoint id&gt;-&lt;n&gt;/           this snapshot's files, until uploaded or released
 *
 *   upload, {@link Sharing#INCREMENTAL}:     *.sst not confirmed -> SHARED stream     (sharedState)
 *                                   *.sst confirmed     -> the earlier handle    (sharedState)
 *                                   MANIFEST, CURRENT, OPTIONS, ... -> EXCLUSIVE (privateState)
 *                                   meta data ({@link RocksDBCheckpointMeta}) -> EXCLUSIVE
 *   upload, {@link Sharing#SELF_CONTAINED} (NATIVE savepoint): every file EXCLUSIVE (privateState), nothing reused
 *   no upload, {@link Sharing#LOCAL_HANDOVER} (in-place rescale): every file a {@link FileStateHandle} on the
 *                                   folder's own file (privateState); meta data in memory, owning the folder
 *                                   ({@link RocksDBHandoverMeta}), sizes only, no checksums; the value
 *                                   cache's dirty entries with it, instead of in the files
 * </pre>
 *
 * <p>The SST files an incremental checkpoint may refer to instead of uploading are those of the latest
 * checkpoint the backend knew completed when the synchronous phase ran ({@link RocksDBUploadTracker}); an
 * SST file's name identifies its content within one database, as RocksDB never reuses a file number.
 * When the upload fails, the files it uploaded are deleted again (reused ones are left alone).
 *
 * <p>{@link #writeTo} writes the canonical format from the same files instead, as
 * {@link RocksDBCheckpointSnapshot} does, so the snapshot serves either way (once).
 *
 * <p>Uploaded or written by any one thread; the folder is deleted once that ends or on release, unless it was
 * handed over (then the handle's meta data owns it). The
 * column family options belong to the backend, whose close releases pending snapshots and waits for a
 * running upload to stop before it frees them.
 */
final class RocksDBIncrementalSnapshot extends AbstractKeyedStateSnapshot {

    /** How the files are owned. */
    enum Sharing {
        /** New SST files shared with later checkpoints, confirmed ones reused. */
        INCREMENTAL,
        /** Every file belongs to this snapshot alone (a NATIVE savepoint). */
        SELF_CONTAINED,
        /**
         * The files stay where the RocksDB checkpoint put them, on local disk next to the working directory, and
         * are handed over by path to the stores of an in-place rescale ({@link RocksDBHandoverMeta}).
         */
        LOCAL_HANDOVER
    }

    private static final int COPY_BUFFER_BYTES = 64 << 10;

    private final UUID backendId;
    private final long checkpointId;
    private final Sharing sharing;
    private final Path checkpoint;
    private final ColumnFamilyOptions columnFamilyOptions;
    private final List<RocksDBSnapshotWriter.SnapshotState> states;
    /** The value cache's dirty entries, not in the files: only a handover has any ({@link RocksDBHandoverMeta}). */
    private final RocksDBDirtyValues dirtyValues;
    private final long ttlNow;
    private final RocksDBUploadTracker tracker;
    /** The confirmed uploads when the sync phase ran; empty when self-contained. */
    private final Map<String, RocksDBUploadTracker.UploadedFile> reusable;

    /** Set by {@link #materialize} before it calls {@link #writeTo}; null for a canonical write. */
    private CheckpointStreamFactory uploadTarget;
    private IncrementalRemoteKeyedStateHandle result;
    /** Set once a handover's handle owns the folder: {@link #free} then leaves it. Writer thread only. */
    private boolean handedOver;

    RocksDBIncrementalSnapshot(KeyGroupRange range, String description, UUID backendId, long checkpointId,
            Sharing sharing, Path checkpoint, ColumnFamilyOptions columnFamilyOptions,
            List<RocksDBSnapshotWriter.SnapshotState> states, RocksDBDirtyValues dirtyValues, long ttlNow,
            RocksDBUploadTracker tracker, Map<String, RocksDBUploadTracker.UploadedFile> reusable) {
        super(range, description);
        this.backendId = backendId;
        this.checkpointId = checkpointId;
        this.sharing = sharing;
        this.checkpoint = checkpoint;
        this.columnFamilyOptions = columnFamilyOptions;
        this.states = states;
        this.dirtyValues = Objects.requireNonNull(dirtyValues, "dirtyValues");
        if (sharing != Sharing.LOCAL_HANDOVER && dirtyValues.size() > 0) {
            throw new IllegalArgumentException("only a handover carries value-cache entries besides its files");
        }
        this.ttlNow = ttlNow;
        this.tracker = tracker;
        this.reusable = sharing == Sharing.INCREMENTAL ? reusable : Map.of();
    }

    /** The checkpoint's folder; for tests. */
    Path checkpointPath() {
        return checkpoint;
    }

    /**
     * Uploads the files through {@code streams} and returns the {@link IncrementalRemoteKeyedStateHandle}
     * of them; then deletes the local folder, whether the upload succeeded or not.
     *
     * @throws IOException if reading or uploading fails, or the snapshot was released (before or during)
     */
    @Override
    public KeyedStateHandle materialize(CheckpointStreamFactory streams) throws IOException {
        uploadTarget = Objects.requireNonNull(streams, "streams");
        // writeTo gives the upload the snapshot's life cycle: once only, stopped by a release, folder freed.
        writeTo(OutputStream.nullOutputStream());
        return result;
    }

    @Override
    protected KeyGroupRangeOffsets write(OutputStream out) throws IOException {
        if (uploadTarget == null) {
            return RocksDBCheckpointSnapshot.writeCanonical(checkpoint, columnFamilyOptions,
                    RocksDBCheckpointSnapshot.namesOf(states), dirtyValues, states, ttlNow,
                    getKeyGroupRange(), toString(), this::checkNotReleased, out);
        }
        result = sharing == Sharing.LOCAL_HANDOVER ? handOver() : upload(uploadTarget);
        return new KeyGroupRangeOffsets(getKeyGroupRange());
    }

    private IncrementalRemoteKeyedStateHandle upload(CheckpointStreamFactory streams) throws IOException {
        boolean incremental = sharing == Sharing.INCREMENTAL;
        List<HandleAndLocalPath> shared = new ArrayList<>();
        List<HandleAndLocalPath> exclusive = new ArrayList<>();
        Map<String, RocksDBUploadTracker.UploadedFile> sstFiles = new HashMap<>();
        Map<String, RocksDBCheckpointMeta.FileInfo> infos = new HashMap<>();
        List<StreamStateHandle> uploadedHere = new ArrayList<>();
        try {
            for (Path file : listFiles()) {
                checkNotReleased();
                String name = file.getFileName().toString();
                boolean sst = name.endsWith(".sst");
                RocksDBUploadTracker.UploadedFile uploaded = sst ? reusable.get(name) : null;
                if (uploaded == null || uploaded.size() != Files.size(file)) {
                    uploaded = uploadFile(file, incremental && sst
                            ? CheckpointedStateScope.SHARED : CheckpointedStateScope.EXCLUSIVE);
                    uploadedHere.add(uploaded.handle());
                }
                infos.put(name, new RocksDBCheckpointMeta.FileInfo(uploaded.size(), uploaded.crc()));
                if (incremental && sst) {
                    shared.add(new HandleAndLocalPath(name, uploaded.handle()));
                    sstFiles.put(name, uploaded);
                } else {
                    exclusive.add(new HandleAndLocalPath(name, uploaded.handle()));
                }
            }
            List<StateMetaInfo> metaInfos = states.stream().map(RocksDBSnapshotWriter.SnapshotState::metaInfo).toList();
            StreamStateHandle meta;
            try (CheckpointStateOutputStream out = streams.createCheckpointStateOutputStream(
                    CheckpointedStateScope.EXCLUSIVE)) {
                new RocksDBCheckpointMeta(getKeyGroupRange(), metaInfos, infos).writeTo(out);
                meta = out.closeAndGetHandle();
            }
            uploadedHere.add(meta);
            checkNotReleased();
            if (incremental) {
                tracker.uploaded(checkpointId, sstFiles);
            }
            return new IncrementalRemoteKeyedStateHandle(backendId, getKeyGroupRange(), checkpointId, shared,
                    exclusive, meta);
        } catch (IOException | RuntimeException e) {
            for (StreamStateHandle handle : uploadedHere) {
                try {
                    handle.discardState();
                } catch (IOException suppressed) {
                    e.addSuppressed(suppressed);
                }
            }
            throw e;
        }
    }

    /**
     * The handle of the files as they lie in the folder: nothing is read or copied (only the files' sizes are
     * recorded), and the folder now belongs to the handle's meta data.
     */
    private IncrementalRemoteKeyedStateHandle handOver() throws IOException {
        List<HandleAndLocalPath> files = new ArrayList<>();
        Map<String, RocksDBCheckpointMeta.FileInfo> infos = new HashMap<>();
        for (Path file : listFiles()) {
            String name = file.getFileName().toString();
            long size = Files.size(file);
            files.add(new HandleAndLocalPath(name, new FileStateHandle(file, size)));
            infos.put(name, new RocksDBCheckpointMeta.FileInfo(size, 0));
        }
        List<StateMetaInfo> metaInfos = states.stream().map(RocksDBSnapshotWriter.SnapshotState::metaInfo).toList();
        ByteArrayOutputStream metaBytes = new ByteArrayOutputStream(512);
        new RocksDBCheckpointMeta(getKeyGroupRange(), metaInfos, infos).writeTo(metaBytes);
        RocksDBHandoverMeta meta = new RocksDBHandoverMeta(
                new ByteStreamStateHandle("meta data of the " + this, metaBytes.toByteArray()),
                dirtyValues.encode(states), checkpoint);
        checkNotReleased();
        handedOver = true;
        return new IncrementalRemoteKeyedStateHandle(backendId, getKeyGroupRange(), checkpointId, List.of(), files,
                meta);
    }

    private List<Path> listFiles() throws IOException {
        try (Stream<Path> files = Files.list(checkpoint)) {
            return files.filter(Files::isRegularFile).sorted().toList();
        }
    }

    /** Copies {@code file} into a new stream of {@code scope}, checksumming it on the way. */
    private RocksDBUploadTracker.UploadedFile uploadFile(Path file, CheckpointedStateScope scope) throws IOException {
        CRC32C crc = new CRC32C();
        byte[] buffer = new byte[COPY_BUFFER_BYTES];
        long size = 0;
        try (InputStream in = Files.newInputStream(file);
                CheckpointStateOutputStream out = streams(scope)) {
            int n;
            while ((n = in.read(buffer)) > 0) {
                checkNotReleased();
                crc.update(buffer, 0, n);
                out.write(buffer, 0, n);
                size += n;
            }
            return new RocksDBUploadTracker.UploadedFile(out.closeAndGetHandle(), size, (int) crc.getValue());
        } catch (IOException e) {
            throw new IOException(String.format("Could not upload file %s of the %s: %s", file.getFileName(), this,
                    e.getMessage()), e);
        }
    }

    private CheckpointStateOutputStream streams(CheckpointedStateScope scope) throws IOException {
        return uploadTarget.createCheckpointStateOutputStream(scope);
    }

    /**
     * Deletes the checkpoint's folder, unless it was handed over. If that fails the backend's close removes it
     * with the working directory (a handover folder, which lies next to it, goes with the base directory: the
     * job's, by default); nothing in it is used again.
     */
    @Override
    protected void free() {
        if (handedOver) {
            return;
        }
        try {
            RocksDBWorkingDirectory.deleteTree(checkpoint);
        } catch (IOException ignored) {
            // see above
        }
    }
}
