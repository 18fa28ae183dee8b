package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.util.Collection;

/**
 * A {@link SinkWriter} whose output becomes visible in a second phase: at each checkpoint barrier (after
 * {@link #flush flush(false)}) and once more at the end of input (after {@code flush(true)}), the runtime
 * calls {@link #prepareCommit()} and keeps the committables it returns in checkpointed state until the
 * {@link Committer} commits them, when that checkpoint completes.
 *
 * @param <InputT> the record type
 * @param <CommT> the committable type
 */
public interface CommittingSinkWriter<InputT, CommT> extends SinkWriter<InputT> {

    /**
     * Stages what was written since the previous call and returns what the committer needs to make it
     * visible (possibly nothing). Task thread; called before the writer's {@code snapshotState}, so that what
     * is staged is no longer part of the writer's state.
     */
    Collection<CommT> prepareCommit() throws IOException, InterruptedException;
}
