package dev.runnel.configuration;

/**
 * Options of the TaskManager that runs tasks (in the embedded runtime: the one in-process TaskManager),
 * with Flink's keys and defaults. Constants only.
 */
public final class TaskManagerOptions {

    /** How often a cancelled task's thread is interrupted again while it has not stopped (Flink's key). */
    public static final ConfigOption<Long> TASK_CANCELLATION_INTERVAL = ConfigOption.longOption(
            "task.cancellation.interval", 30_000L,
            "Milliseconds between two interrupts of a cancelled task's thread that has not stopped yet.");

    /**
     * How long a cancelled task may take to stop before it is given up on with an error that shows where its
     * thread is stuck; 0 waits for ever (Flink's key).
     */
    public static final ConfigOption<Long> TASK_CANCELLATION_TIMEOUT = ConfigOption.longOption(
            "task.cancellation.timeout", 180_000L,
            "Milliseconds a cancelled task may take to stop before it is abandoned with an error naming the"
                    + " operator and the stack of its thread; 0 disables the timeout.");

    /** The TaskManager's id as other TaskManagers and logs name it; a random one when unset. */
    public static final ConfigOption<String> TASK_MANAGER_RESOURCE_ID = ConfigOption.stringOption(
            "taskmanager.resource-id", null, "The TaskManager's id as other TaskManagers and logs name it.");

    /** The size of one network buffer; records are serialized into buffers of this size. */
    public static final ConfigOption<Long> MEMORY_SEGMENT_SIZE = ConfigOption.memoryOption(
            "taskmanager.memory.segment-size", 32 * 1024,
            "The size of one network buffer; records are serialized into buffers of this size.");

    private TaskManagerOptions() {}
}
