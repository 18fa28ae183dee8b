package dev.runnel.api.connector.sink2;

import java.util.OptionalLong;

/**
 * What the parts of a sink (its writer, its committer) may know about the subtask they run in. Shared by
 * {@link WriterInitContext} and {@link CommitterInitContext}; implemented by the runtime. Values are fixed for
 * the life of the writer or committer they were given to.
 */
public interface InitContext {

    /** The id of the first checkpoint of a job that was not restored; ids grow by one from there. */
    long INITIAL_CHECKPOINT_ID = 1;

    /** The index of this subtask, from 0. */
    int getSubtaskId();

    int getNumberOfParallelSubtasks();

    /** How many times this subtask was restarted before this attempt (0 on the first). */
    int getAttemptNumber();

    /**
     * The checkpoint this subtask was restored from, or empty on a fresh start. A sink that names its
     * transactions or files by checkpoint id continues after this one.
     */
    default OptionalLong getRestoredCheckpointId() {
        return OptionalLong.empty();
    }
}
