package dev.runnel.streaming.runtime.tasks;

import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.CheckpointStreamFactory;
import java.io.IOException;
import java.util.Map;

/**
 * How a task reaches the checkpoint coordinator of its job: where to write the state of a checkpoint, and
 * the acknowledgement or decline of each checkpoint. In the embedded runtime the coordinator itself; in a
 * cluster the TaskManager's connection to the JobManager. Thread-safe: acknowledgements come from the
 * tasks' asynchronous snapshot threads.
 */
public interface CheckpointResponder {

    /**
     * Whether the job takes periodic checkpoints. Then tasks wait at their end for the final checkpoint,
     * and sinks commit only with checkpoints. A job without them still takes savepoints.
     */
    boolean isPeriodicCheckpointingEnabled();

    /** Where the state of checkpoint {@code checkpointId} goes. */
    CheckpointStreamFactory streamFactory(long checkpointId) throws IOException;

    /** Subtask {@code subtask} of vertex {@code vertexId} wrote its state for checkpoint {@code checkpointId}. */
    void acknowledgeCheckpoint(String vertexId, int subtask, long checkpointId,
            Map<String, OperatorSubtaskState> operatorStates, CheckpointMetrics metrics);

    /** The subtask could not take checkpoint {@code checkpointId} (or gave it up while aligning). */
    void declineCheckpoint(String vertexId, int subtask, long checkpointId, Throwable cause);

    /** For tasks of jobs that do not checkpoint: every call is refused. */
    CheckpointResponder NONE = new CheckpointResponder() {
        @Override
        public boolean isPeriodicCheckpointingEnabled() {
            return false;
        }

        @Override
        public CheckpointStreamFactory streamFactory(long checkpointId) throws IOException {
            throw new IOException("This job does not take checkpoints (checkpoint " + checkpointId + ")");
        }

        @Override
        public void acknowledgeCheckpoint(String vertexId, int subtask, long checkpointId,
                Map<String, OperatorSubtaskState> operatorStates, CheckpointMetrics metrics) {}

        @Override
        public void declineCheckpoint(String vertexId, int subtask, long checkpointId, Throwable cause) {}
    };
}
