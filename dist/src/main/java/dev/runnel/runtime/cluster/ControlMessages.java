package dev.runnel.runtime.cluster;

import dev.runnel.api.common.JobID;
import dev.runnel.streaming.runtime.tasks.CheckpointMetrics;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.checkpoint.CheckpointStorageLocation;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.minicluster.TaskPlacement;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.streaming.runtime.tasks.TaskRestore;
import java.io.ByteArrayOutputStream;
import java.io.ObjectOutputStream;
import java.io.PrintWriter;
import java.io.Serializable;
import java.io.StringWriter;
import java.util.List;
import java.util.Map;

/**
 * The messages of the control plane between the JobManager and its TaskManagers (carried by
 * {@code dev.runnel.runtime.network.netty.RpcService}). Protocol version: the handshake's. Each message is an
 * immutable record of Runnel's and the JDK's types; whatever is the user's (job graph, jar, splits,
 * accumulators, exceptions) is inside as bytes, read with the job's class loader on the other side.
 */
public final class ControlMessages {

    private ControlMessages() {}

    /** A message about one job: the JobManager hands it to that job. */
    public interface JobScoped extends Serializable {
        JobID jobId();
    }

    /** A message about one task, and so about its job. */
    public interface TaskScoped extends JobScoped {
        TaskKey task();

        @Override
        default JobID jobId() {
            return task().jobId();
        }
    }

    /** Which task of which attempt of which job a message is about. */
    public record TaskKey(JobID jobId, int attempt, String vertexId, int subtask) implements Serializable {
        @Override
        public String toString() {
            return jobId + "/" + attempt + "/" + vertexId + "#" + subtask;
        }
    }

    /**
     * An exception as it crossed the wire: its class and message always; the exception itself as Java bytes when
     * it could be serialized (read back with the job's class loader).
     */
    public record SerializedError(String className, String message, String stackTrace, byte[] serialized)
            implements Serializable {

        public static SerializedError of(Throwable error) {
            StringWriter stack = new StringWriter();
            error.printStackTrace(new PrintWriter(stack));
            byte[] bytes;
            try (ByteArrayOutputStream buffer = new ByteArrayOutputStream();
                    ObjectOutputStream out = new ObjectOutputStream(buffer)) {
                out.writeObject(error);
                out.flush();
                bytes = buffer.toByteArray();
            } catch (Exception e) {
                bytes = null;
            }
            return new SerializedError(error.getClass().getName(), error.getMessage(), stack.toString(), bytes);
        }
    }

    // ------------------------------------------------------------------ TaskManager -> JobManager

    /** A TaskManager offers its slots. */
    public record RegisterTaskManager(String resourceId, String host, int slots, long memoryBytes, int cpuCores,
            int metricsPort) implements Serializable {}

    /** Sent every {@code heartbeat.interval}, with the TaskManager's task metrics (name → value). */
    public record Heartbeat(String resourceId, Map<String, Double> metrics) implements Serializable {}

    /** The TaskManager's data plane for the attempt listens at {@code location}. */
    public record AttemptOpened(JobID jobId, int attempt, TaskLocation location) implements JobScoped {}

    public record AttemptOpenFailed(JobID jobId, int attempt, SerializedError error) implements JobScoped {}

    /** The task finished; {@code accumulators} is its Java-serialized {@code Map<String, Accumulator>}. */
    public record TaskFinished(TaskKey task, byte[] accumulators) implements TaskScoped {}

    public record TaskFailed(TaskKey task, SerializedError error) implements TaskScoped {}

    public record TaskRunning(TaskKey task) implements TaskScoped {}

    public record TaskEndOfInput(TaskKey task) implements TaskScoped {}

    public record AcknowledgeCheckpoint(TaskKey task, long checkpointId, Map<String, OperatorSubtaskState> states,
            CheckpointMetrics metrics) implements TaskScoped {}

    public record DeclineCheckpoint(TaskKey task, long checkpointId, SerializedError error) implements TaskScoped {}

    /** A source reader of operator {@code operatorId} is ready for splits. */
    public record RegisterReader(TaskKey task, String operatorId) implements TaskScoped {}

    public record RequestSplit(TaskKey task, String operatorId) implements TaskScoped {}

    // ------------------------------------------------------------------ JobManager -> TaskManager

    public record RegistrationAccepted(String jobManagerId, long heartbeatIntervalMillis) implements Serializable {}

    /** The JobManager refuses the TaskManager; it logs {@code reason} and stops. */
    public record RegistrationRefused(String reason) implements Serializable {}

    /**
     * Opens attempt {@code attempt} of a job on the TaskManager: a shuffle for it, the job graph (Java bytes,
     * read with the job's class loader) and the job's jar, which is sent only the first time a TaskManager
     * serves the job (null after), the job's configuration, and whether the job checkpoints periodically.
     */
    public record OpenAttempt(JobID jobId, int attempt, String jobName, byte[] jobGraph, List<byte[]> jars,
            Map<String, String> configuration, boolean periodicCheckpoints) implements JobScoped {}

    public record DeployTask(TaskKey task, TaskPlacement placement, TaskRestore restore) implements TaskScoped {}

    public record StartTask(TaskKey task) implements TaskScoped {}

    public record CancelTask(TaskKey task) implements TaskScoped {}

    public record TriggerCheckpoint(TaskKey task, long checkpointId, long timestamp, CheckpointOptions options,
            boolean stop, boolean drain) implements TaskScoped {}

    public record NotifyCheckpoint(TaskKey task, long checkpointId, boolean complete) implements TaskScoped {}

    public record ReleaseAfterEnd(TaskKey task) implements TaskScoped {}

    /** Where the tasks of the attempt write checkpoint {@code checkpointId}. */
    public record AnnounceCheckpoint(JobID jobId, int attempt, long checkpointId, CheckpointStorageLocation location)
            implements JobScoped {}

    /** Splits for a reader, each serialized by the source's split serializer at {@code serializerVersion}. */
    public record AssignSplits(TaskKey task, String operatorId, int serializerVersion, List<byte[]> splits)
            implements TaskScoped {}

    public record NoMoreSplits(TaskKey task, String operatorId) implements TaskScoped {}

    /** Every task of the attempt stopped: its shuffle and slots are released. */
    public record CloseAttempt(JobID jobId, int attempt) implements JobScoped {}

    /** The job ended: its class loader and files go. */
    public record ReleaseJob(JobID jobId) implements JobScoped {}
}
