package dev.runnel.runtime.minicluster;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.GlobalConfiguration;
import dev.runnel.configuration.SecurityOptions;
import dev.runnel.configuration.TaskManagerOptions;
import dev.runnel.core.execution.JobClient;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.ShuffleServiceFactory;
import dev.runnel.runtime.state.StateBackend;
import dev.runnel.runtime.state.StateBackendFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;

/**
 * Runs jobs inside the calling JVM: every subtask is a thread, records move through in-memory
 * channels, state lives in the configured store. This is what {@code execute()} uses by default, and
 * the same task engine a TaskManager hosts.
 *
 * <p>Stateless; each {@link #submit} starts an independent job. Thread-safe.
 */
public final class EmbeddedRuntime {

    /** Which shuffle moves records between subtasks. */
    public static final ConfigOption<String> SHUFFLE_SERVICE = ConfigOption.stringOption("shuffle.service", "local",
            "The shuffle implementation: 'local' moves records in memory within one JVM; 'netty' also between"
                    + " TaskManagers (chosen by default when taskmanager.count > 1).");

    /**
     * How many TaskManagers the embedded runtime runs in this JVM. With more than one, every exchange between
     * two of them goes through the network shuffle on loopback, exactly as between processes.
     */
    public static final ConfigOption<Integer> TASK_MANAGER_COUNT = ConfigOption.intOption("taskmanager.count", 1,
            "TaskManagers of the embedded runtime; subtask i of every operator runs on TaskManager i mod count.");

    /** Where tasks keep working files (RocksDB, spills); the JVM's temp dir by default. */
    public static final ConfigOption<String> TMP_DIRS = ConfigOption.stringOption("io.tmp.dirs",
            System.getProperty("java.io.tmpdir"), "Comma-separated local directories for working files.");

    private EmbeddedRuntime() {}

    /** Starts {@code job} and returns at once; the client tracks it. */
    public static JobClient submit(JobGraph job, Configuration configuration) {
        Configuration effective = job.getConfiguration().copy();
        addMissing(effective, configuration);
        addMissing(effective, GlobalConfiguration.loadConfiguration());
        EmbeddedJob running = new EmbeddedJob(job, effective, taskManagers(effective), stateBackend(job, effective));
        running.start();
        return running;
    }

    /** Settings of {@code defaults} that {@code target} does not have yet (the job's own win). */
    private static void addMissing(Configuration target, Configuration defaults) {
        defaults.toMap().forEach((k, v) -> {
            if (!target.toMap().containsKey(k)) {
                target.setString(k, v);
            }
        });
    }

    /** The shuffle of every TaskManager; more than one uses the network shuffle, with a secret of this runtime. */
    static List<ShuffleEnvironment> taskManagers(Configuration configuration) {
        int count = configuration.get(TASK_MANAGER_COUNT);
        if (count < 1) {
            throw new IllegalArgumentException(TASK_MANAGER_COUNT.key() + " must be >= 1, was " + count);
        }
        if (count == 1) {
            return List.of(shuffle(configuration, configuration.get(SHUFFLE_SERVICE)));
        }
        String name = configuration.contains(SHUFFLE_SERVICE) ? configuration.get(SHUFFLE_SERVICE) : "netty";
        if (name.equals("local")) {
            throw new IllegalArgumentException(TASK_MANAGER_COUNT.key() + " is " + count + " but " + SHUFFLE_SERVICE.key()
                    + " is 'local', which cannot connect TaskManagers; use 'netty' or leave it unset.");
        }
        String secret = configuration.get(SecurityOptions.CLUSTER_SECRET);
        if (secret == null) {
            // TaskManagers of one embedded runtime share a secret no one outside this JVM knows.
            byte[] random = new byte[24];
            new java.security.SecureRandom().nextBytes(random);
            secret = java.util.HexFormat.of().formatHex(random);
        }
        List<ShuffleEnvironment> environments = new ArrayList<>();
        try {
            for (int i = 0; i < count; i++) {
                Configuration own = configuration.copy();
                own.set(SecurityOptions.CLUSTER_SECRET, secret);
                own.set(TaskManagerOptions.TASK_MANAGER_RESOURCE_ID, "tm-" + i);
                environments.add(shuffle(own, name));
            }
        } catch (RuntimeException e) {
            environments.forEach(ShuffleEnvironment::close);
            throw e;
        }
        return environments;
    }

    /** The shuffle named {@code name} (found by {@code ServiceLoader}) for one TaskManager with {@code configuration}. */
    public static ShuffleEnvironment shuffle(Configuration configuration, String name) {
        List<String> available = new ArrayList<>();
        for (ShuffleServiceFactory factory : ServiceLoader.load(ShuffleServiceFactory.class)) {
            if (factory.name().equals(name)) {
                return factory.create(configuration);
            }
            available.add(factory.name());
        }
        throw new IllegalStateException("No shuffle service named '" + name + "' (" + SHUFFLE_SERVICE.key()
                + "); available: " + available + ". Is runtime-network on the classpath?");
    }

    /** The job's own state backend, or the one {@code state.backend.type} names. */
    public static StateBackend stateBackend(JobGraph job, Configuration configuration) {
        if (job.getStateBackend() != null) {
            return job.getStateBackend();
        }
        String name = configuration.get(StateBackendFactory.STATE_BACKEND);
        List<String> available = new ArrayList<>();
        for (StateBackendFactory factory : ServiceLoader.load(StateBackendFactory.class)) {
            if (factory.name().equals(name)) {
                return factory.createFromConfig(configuration);
            }
            available.add(factory.name());
        }
        return new MissingStateBackend(name, available);
    }
}
