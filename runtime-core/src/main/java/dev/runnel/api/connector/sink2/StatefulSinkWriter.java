package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.util.List;

/**
 * A {@link SinkWriter} with state of its own that must survive a failure (open files and how much of them
 * belongs to the checkpoint, transaction ids). See {@link SupportsWriterState}.
 *
 * @param <InputT> the record type
 * @param <WriterStateT> the state type
 */
public interface StatefulSinkWriter<InputT, WriterStateT> extends SinkWriter<InputT> {

    /**
     * The writer's state for checkpoint {@code checkpointId}, on the task thread, after
     * {@link CommittingSinkWriter#prepareCommit()} for a committing writer. What it returns must stay valid
     * after the call (copies, not views of mutable internals); on recovery it is given to
     * {@link SupportsWriterState#restoreWriter}, possibly merged with other subtasks' states after a rescale.
     */
    List<WriterStateT> snapshotState(long checkpointId) throws IOException;
}
