package dev.runnel.runtime.shuffle;

import java.net.InetSocketAddress;
import java.util.Objects;

/**
 * Where one execution attempt of a subtask runs, as a shuffle needs to reach it: the TaskManager that
 * hosts it, that TaskManager's data address (null when it has none, as in the embedded runtime, where
 * every channel is in memory), and the attempt number. Two ends on the same TaskManager talk through
 * memory; ends on different TaskManagers through the data address. Immutable.
 */
public record TaskLocation(String taskManagerId, InetSocketAddress dataAddress, int attemptNumber)
        implements java.io.Serializable {

    /** The id of the embedded runtime's single, in-process TaskManager. */
    public static final String EMBEDDED_TASK_MANAGER = "embedded";

    public TaskLocation {
        Objects.requireNonNull(taskManagerId, "taskManagerId");
        if (attemptNumber < 0) {
            throw new IllegalArgumentException("attempt number must be >= 0, was " + attemptNumber);
        }
    }

    /** An attempt in the embedded runtime: same JVM as every other, no data address. */
    public static TaskLocation embedded(int attemptNumber) {
        return new TaskLocation(EMBEDDED_TASK_MANAGER, null, attemptNumber);
    }

    /** Whether both ends run on the same TaskManager, so their channel can stay in memory. */
    public boolean isSameTaskManager(TaskLocation other) {
        return taskManagerId.equals(other.taskManagerId);
    }

    @Override
    public String toString() {
        return taskManagerId + (dataAddress == null ? "" : "@" + dataAddress) + "#" + attemptNumber;
    }
}
