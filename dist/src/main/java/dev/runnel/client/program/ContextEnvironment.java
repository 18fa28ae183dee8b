package dev.runnel.client.program;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.graph.StreamGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;

/**
 * The environment {@code getExecutionEnvironment()} returns while the CLI runs a user's program (Flink's
 * {@code StreamContextEnvironment}): the job is compiled here, given the CLI's restore settings, and handed to
 * a {@link JobGraphExecutor} instead of the embedded runtime. {@code -p} is the default parallelism the program
 * starts from (its own {@code setParallelism} wins, as in Flink). Detached, {@code execute()} returns once the
 * job is submitted, with a result that holds no accumulators and a runtime of -1.
 *
 * <p>Install it with {@link #setAsContext}, which is global (every thread), and remove it with
 * {@link #unsetAsContext()}; the CLI runs one program at a time. Not thread-safe, like every environment.
 */
public final class ContextEnvironment extends StreamExecutionEnvironment {

    private final Options options;

    private ContextEnvironment(Configuration configuration, Options options) {
        super(configuration, options.parallelism);
        this.options = options;
    }

    /**
     * How the CLI runs the program's jobs. {@code dynamicProperties} ({@code -D}) go into every job's
     * configuration; {@code parallelism} is the default; {@code submitted} collects the client of every job
     * submitted, so the CLI knows whether the program called {@code execute()}.
     */
    public record Options(int parallelism, Map<String, String> dynamicProperties, SavepointRestoreSettings restore,
            boolean detached, JobGraphExecutor executor, List<JobClient> submitted) {

        public Options {
            if (parallelism < 1) {
                throw new IllegalArgumentException("The parallelism must be at least 1, got " + parallelism);
            }
            dynamicProperties = Map.copyOf(dynamicProperties);
            submitted = submitted == null ? new ArrayList<>() : submitted;
        }
    }

    /** Makes {@code getExecutionEnvironment()}, in every thread, return environments that run jobs per {@code options}. */
    public static void setAsContext(Options options) {
        initializeContextEnvironment(jobConfiguration -> {
            Configuration configuration = Configuration.fromMap(options.dynamicProperties());
            jobConfiguration.toMap().forEach(configuration::setString);
            options.restore().applyTo(configuration);
            return new ContextEnvironment(configuration, options);
        });
    }

    /** {@code getExecutionEnvironment()} returns plain embedded environments again. */
    public static void unsetAsContext() {
        resetContextEnvironment();
    }

    @Override
    public JobClient executeAsync(StreamGraph streamGraph) {
        JobGraph jobGraph = streamGraph.getJobGraph();
        options.restore().applyTo(jobGraph.getConfiguration());
        JobClient client;
        try {
            client = options.executor().execute(jobGraph);
        } catch (RuntimeException e) {
            throw e;
        } catch (Exception e) {
            throw new IllegalStateException("Could not submit job '" + jobGraph.getJobName() + "': " + e.getMessage(), e);
        }
        options.submitted().add(client);
        return client;
    }

    @Override
    public JobExecutionResult execute(String jobName) throws Exception {
        return await(executeAsync(jobName));
    }

    @Override
    public JobExecutionResult execute(StreamGraph streamGraph) throws Exception {
        return await(executeAsync(streamGraph));
    }

    private JobExecutionResult await(JobClient client) throws Exception {
        if (options.detached()) {
            return new JobExecutionResult(client.getJobID(), -1, Map.of());
        }
        try {
            return client.getJobExecutionResult().get();
        } catch (ExecutionException e) {
            if (e.getCause() instanceof JobExecutionException failure) {
                throw failure;
            }
            throw e.getCause() instanceof Exception cause ? cause : e;
        }
    }
}
