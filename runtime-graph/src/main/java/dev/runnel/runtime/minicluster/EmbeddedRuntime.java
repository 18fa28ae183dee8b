package dev.runnel.runtime.minicluster;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
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
            "The shuffle implementation: 'local' moves records in memory within one JVM.");

    /** Where tasks keep working files (RocksDB, spills); the JVM's temp dir by default. */
    public static final ConfigOption<String> TMP_DIRS = ConfigOption.stringOption("io.tmp.dirs",
            System.getProperty("java.io.tmpdir"), "Comma-separated local directories for working files.");

    private EmbeddedRuntime() {}

    /** Starts {@code job} and returns at once; the client tracks it. */
    public static JobClient submit(JobGraph job, Configuration configuration) {
        Configuration effective = job.getConfiguration().copy();
        configuration.toMap().forEach((k, v) -> {
            if (!effective.toMap().containsKey(k)) {
                effective.setString(k, v);
            }
        });
        EmbeddedJob running = new EmbeddedJob(job, effective, shuffle(effective), stateBackend(job, effective));
        running.start();
        return running;
    }

    static ShuffleEnvironment shuffle(Configuration configuration) {
        String name = configuration.get(SHUFFLE_SERVICE);
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

    static StateBackend stateBackend(JobGraph job, Configuration configuration) {
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
