package dev.runnel.runtime.state.rocksdb;

import dev.runnel.runtime.state.StreamStateHandle;
import dev.runnel.runtime.state.snapshot.ByteStreamStateHandle;
import java.io.IOException;
import java.nio.channels.SeekableByteChannel;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The meta blob ({@link RocksDBCheckpointMeta}) of a RocksDB snapshot handed over in place
 * ({@link dev.runnel.runtime.checkpoint.CheckpointOptions#isLocalHandover()}), which also owns the local folder
 * holding the snapshot's files: the RocksDB checkpoint the old store took, outside its working directory so
 * that the store's close leaves it.
 *
 * <pre>
 *   &lt;base&gt;/rocksdb-&lt;operator&gt;-&lt;subtask&gt;-&lt;random&gt;/          the old store's working directory (deleted on close)
 *   &lt;base&gt;/rocksdb-handover-&lt;operator&gt;-&lt;subtask&gt;-&lt;random&gt;/ {@link #folder()}: the handed-over files
 * </pre>
 *
 * Its presence as a snapshot's meta handle tells {@link RocksDBIncrementalRestoreOperation} that the files are
 * local and never left this machine's disk: the restore links them (SST files) or copies them (the small
 * files RocksDB may append to) and checks their sizes, but reads no bytes to checksum them; the meta data
 * records no CRC for them. The old store's dirty value-cache entries travel here too, in memory: writing them
 * into RocksDB before the checkpoint's flush would lengthen the synchronous phase, so each new store writes
 * those of its key groups after opening the files instead. {@link #discardState()} deletes the whole folder, which the job does once every new
 * task restored (the new stores have their own links by then) or when the handover is given up.
 *
 * <p>Immutable and thread-safe. Serializable as every handle, but meaningful only in the process and on the
 * machine that wrote it; such a snapshot is never written to checkpoint metadata.
 */
final class RocksDBHandoverMeta implements StreamStateHandle {

    private static final long serialVersionUID = 1L;

    private final ByteStreamStateHandle bytes;
    private final byte[] cacheEntries;
    private final String folder;

    /**
     * @param bytes the meta blob
     * @param cacheEntries the old store's dirty value-cache entries, {@link RocksDBDirtyValues#encode encoded}:
     *     newer than the files, not in them; not copied
     * @param folder the folder of the handed-over files, which this handle owns from now on
     */
    RocksDBHandoverMeta(ByteStreamStateHandle bytes, byte[] cacheEntries, Path folder) {
        this.bytes = Objects.requireNonNull(bytes, "bytes");
        this.cacheEntries = Objects.requireNonNull(cacheEntries, "cacheEntries");
        this.folder = folder.toAbsolutePath().toString();
    }

    /** The dirty value-cache entries to write over the files' values ({@link RocksDBDirtyValues#decode}); do not modify. */
    byte[] cacheEntries() {
        return cacheEntries;
    }

    /** The folder of the handed-over files. */
    Path folder() {
        return Path.of(folder);
    }

    @Override
    public SeekableByteChannel openChannel() {
        return bytes.openChannel();
    }

    @Override
    public long getStateSize() {
        return bytes.getStateSize() + cacheEntries.length;
    }

    @Override
    public String describe() {
        return "meta data of the RocksDB files handed over in " + folder + " " + bytes.describe();
    }

    /** Deletes the folder and every handed-over file in it; idempotent. */
    @Override
    public void discardState() throws IOException {
        RocksDBWorkingDirectory.deleteTree(folder());
    }

    @Override
    public String toString() {
        return "RocksDBHandoverMeta{" + folder + '}';
    }
}
