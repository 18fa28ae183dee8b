package dev.runnel.configuration;

import java.time.Duration;

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

    /** Slots a TaskManager of a cluster offers: how many subtasks of each vertex it runs at once (Flink's key). */
    public static final ConfigOption<Integer> NUM_TASK_SLOTS = ConfigOption.intOption("taskmanager.numberOfTaskSlots", 1,
            "The number of slots a TaskManager offers; a slot holds one subtask of each vertex of a slot sharing group.");

    /** The address other processes reach this TaskManager's data plane at (Flink's key). */
    public static final ConfigOption<String> HOST = ConfigOption.stringOption("taskmanager.host", "127.0.0.1",
            "The address of this TaskManager as other processes reach it.");

    /** How long a TaskManager keeps trying to register with its JobManager before it gives up (Flink's key). */
    public static final ConfigOption<Duration> REGISTRATION_TIMEOUT = ConfigOption.durationOption(
            "taskmanager.registration.timeout", Duration.ofMinutes(5),
            "How long a TaskManager tries to register with the JobManager before it exits.");

    /** The memory of a whole TaskManager process; the scripts derive the JVM heap from it (Flink's key). */
    public static final ConfigOption<MemorySize> TOTAL_PROCESS_MEMORY = ConfigOption.memorySizeOption(
            "taskmanager.memory.process.size", MemorySize.parse("1024m"),
            "The memory of a TaskManager process; bin/taskmanager.sh gives the JVM 3/4 of it as heap.");

    private TaskManagerOptions() {}
}
