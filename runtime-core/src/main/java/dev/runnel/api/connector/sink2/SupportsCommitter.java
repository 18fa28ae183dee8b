package dev.runnel.api.connector.sink2;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.IOException;

/**
 * A {@link Sink} that commits in two phases: its writer is a {@link CommittingSinkWriter} that stages
 * committables at each checkpoint, and the {@link Committer} made here commits them once the checkpoint is
 * complete. The runtime keeps the pending committables in checkpointed state with
 * {@link #getCommittableSerializer()}, so that they survive a failure between the checkpoint and its commit.
 *
 * <p>Runnel runs the committer in the writer's own operator and subtask (Flink chains a separate committer
 * operator behind the writer; the protocol is the same). Without checkpointing, committables are committed
 * at the end of input only.
 *
 * @param <CommT> the committable type
 */
public interface SupportsCommitter<CommT> {

    /** The committer of one subtask; called once per subtask, on its task thread, before any commit. */
    Committer<CommT> createCommitter(CommitterInitContext context) throws IOException;

    /** Writes committables into checkpoints and reads them back, also those of older versions. */
    SimpleVersionedSerializer<CommT> getCommittableSerializer();
}
