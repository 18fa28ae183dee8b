package dev.runnel.api.connector.sink2;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.IOException;
import java.util.Collection;

/**
 * A {@link Sink} whose writer has state: the runtime stores what {@link StatefulSinkWriter#snapshotState}
 * returns in the operator's list state at each checkpoint and, on recovery, creates the writer with
 * {@link #restoreWriter} instead of {@link Sink#createWriter}.
 *
 * <p>The states are operator list state (split on rescale): a subtask may get the states of several old
 * subtasks, or none (then {@code restoreWriter} gets an empty collection).
 *
 * @param <InputT> the record type
 * @param <WriterStateT> the writer state type
 */
public interface SupportsWriterState<InputT, WriterStateT> {

    /**
     * The writer of a restored subtask, from the states its predecessors snapshotted (possibly empty). Called
     * on the task thread before any record.
     */
    StatefulSinkWriter<InputT, WriterStateT> restoreWriter(WriterInitContext context,
            Collection<WriterStateT> recoveredState) throws IOException;

    /** Writes the writer's states into checkpoints and reads them back, also those of older versions. */
    SimpleVersionedSerializer<WriterStateT> getWriterStateSerializer();

    /**
     * A sink that can also restore the writer state of other sinks, stored under the given operator state
     * names (to migrate from an older sink to this one).
     */
    interface WithCompatibleState {

        /** The names of the other sinks' writer states that this sink's state serializer reads. */
        Collection<String> getCompatibleWriterStateNames();
    }
}
