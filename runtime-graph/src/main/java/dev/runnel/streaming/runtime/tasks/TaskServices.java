package dev.runnel.streaming.runtime.tasks;

import dev.runnel.configuration.Configuration;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.streaming.runtime.source.SourceCoordinatorProvider;
import java.io.File;
import java.util.List;
import java.util.concurrent.ScheduledExecutorService;

/**
 * The process-wide services a task runs on: shared by every task of a TaskManager (or of the
 * embedded runtime). Thread-safe.
 *
 * @param shuffle moves records between subtasks
 * @param timerScheduler the thread that waits for processing-time timers
 * @param stateBackend where keyed state lives
 * @param configuration the effective configuration
 * @param localDirectories working directories for on-disk state
 * @param metrics the job's metric group
 * @param coordinators the source coordinators of the job
 * @param checkpoints the job's checkpoint coordinator, as the tasks see it
 * @param asyncOperations runs the asynchronous parts of checkpoints
 * @param userCodeClassLoader loads the job's classes (the task thread's context class loader); on a
 *     TaskManager of a cluster the loader of the job's jar
 */
public record TaskServices(
        ShuffleEnvironment shuffle,
        ScheduledExecutorService timerScheduler,
        StateBackend stateBackend,
        Configuration configuration,
        List<File> localDirectories,
        MetricGroup metrics,
        SourceCoordinatorProvider coordinators,
        CheckpointResponder checkpoints,
        java.util.concurrent.Executor asyncOperations,
        ClassLoader userCodeClassLoader) {}
