package dev.runnel.runtime.state;

/**
 * Who owns state written for a checkpoint. {@link #EXCLUSIVE} state belongs to that one checkpoint and is
 * deleted with it (it lives in the checkpoint's {@code chk-N} folder). {@link #SHARED} state may be
 * referred to by later checkpoints too (incremental RocksDB's SST files, in the job's {@code shared}
 * folder) and is deleted by the {@link SharedStateRegistry} once no retained checkpoint uses it.
 */
public enum CheckpointedStateScope {
    EXCLUSIVE,
    SHARED
}
