package dev.runnel.runtime.minicluster;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.streaming.runtime.tasks.DeployedTask;
import dev.runnel.streaming.runtime.tasks.StreamTask;
import dev.runnel.streaming.runtime.tasks.TaskDeployment;
import dev.runnel.streaming.runtime.tasks.TaskServices;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The TaskManagers of the embedded runtime, in this JVM: slot s runs on TaskManager s mod n, every task is a
 * thread. Owning mode makes fresh shuffles for every attempt after the first (so no channel of a failed
 * attempt lingers); split mode (a test launcher runs the rest of the job in other processes) uses the
 * shuffles it was given and deploys only the subtasks placed on them. Thread-safe for the job's use: one
 * attempt at a time.
 */
final class LocalTaskExecutors implements TaskExecutors {

    private final JobGraph job;
    private final Configuration configuration;
    private final boolean owning;
    /** Where every TaskManager is; slot s runs on TaskManager s mod n. */
    private volatile List<TaskLocation> taskManagers;
    /** The shuffles of the TaskManagers in this JVM, by index into {@link #taskManagers}. */
    private volatile Map<Integer, ShuffleEnvironment> local;
    private volatile Map<Integer, TaskServices> services = Map.of();
    private volatile int attempt;
    private boolean used;

    private LocalTaskExecutors(JobGraph job, Configuration configuration, boolean owning, List<TaskLocation> taskManagers,
            Map<Integer, ShuffleEnvironment> local) {
        this.job = job;
        this.configuration = configuration;
        this.owning = owning;
        this.taskManagers = List.copyOf(taskManagers);
        this.local = Map.copyOf(local);
    }

    /** Every TaskManager in this JVM, made for this job: closed with it. */
    static LocalTaskExecutors owning(JobGraph job, Configuration configuration, List<ShuffleEnvironment> shuffles) {
        return new LocalTaskExecutors(job, configuration, true, locations(shuffles), indexed(shuffles));
    }

    /** Only the TaskManagers in {@code local} run here; the caller owns their shuffles. */
    static LocalTaskExecutors split(JobGraph job, Configuration configuration, List<TaskLocation> taskManagers,
            Map<Integer, ShuffleEnvironment> local) {
        return new LocalTaskExecutors(job, configuration, false, taskManagers, local);
    }

    @Override
    public boolean runsWholeJob() {
        return owning;
    }

    /** Every task is a thread here; in split mode the others run elsewhere. */
    @Override
    public boolean tasksShareThisProcess() {
        return owning;
    }

    @Override
    public synchronized List<TaskLocation> openAttempt(AttemptServices attemptServices, int slots) {
        if (owning && used) {
            local.values().forEach(ShuffleEnvironment::close);
            List<ShuffleEnvironment> shuffles = EmbeddedRuntime.taskManagers(configuration);
            taskManagers = locations(shuffles);
            local = indexed(shuffles);
        }
        used = true;
        attempt = attemptServices.attempt();
        Map<Integer, TaskServices> byTaskManager = new HashMap<>();
        local.forEach((index, shuffle) -> byTaskManager.put(index, new TaskServices(shuffle, attemptServices.timers(),
                attemptServices.stateBackend(), configuration, List.of(attemptServices.workingDirectory()),
                attemptServices.metrics(), attemptServices.coordinators(), attemptServices.checkpoints(),
                attemptServices.asyncOperations(), StreamTask.class.getClassLoader())));
        services = byTaskManager;
        List<TaskLocation> bySlot = new ArrayList<>(slots);
        for (int slot = 0; slot < slots; slot++) {
            bySlot.add(taskManagers.get(slot % taskManagers.size()));
        }
        return bySlot;
    }

    @Override
    public DeployedTask deploy(int slot, TaskSpec spec, StreamTask.TaskListener listener) {
        TaskServices taskServices = services.get(slot % taskManagers.size());
        if (taskServices == null) {
            return null;
        }
        return new StreamTask(TaskDeployment.of(job, spec.vertex(), spec.subtask(), attempt, spec.operators(),
                spec.placement()), taskServices, spec.restore(), listener);
    }

    @Override
    public void closeAttempt(int attempt) {
        // The shuffles stay up until the next attempt or the job's end: a finished job's last buffers drain.
    }

    @Override
    public synchronized void close() {
        if (owning) {
            local.values().forEach(ShuffleEnvironment::close);
        }
    }

    private static List<TaskLocation> locations(List<ShuffleEnvironment> shuffles) {
        return shuffles.stream().map(t -> t.location(0)).toList();
    }

    private static Map<Integer, ShuffleEnvironment> indexed(List<ShuffleEnvironment> shuffles) {
        Map<Integer, ShuffleEnvironment> byIndex = new HashMap<>();
        for (int i = 0; i < shuffles.size(); i++) {
            byIndex.put(i, shuffles.get(i));
        }
        return byIndex;
    }
}
