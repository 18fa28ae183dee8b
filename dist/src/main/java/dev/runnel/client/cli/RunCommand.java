package dev.runnel.client.cli;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.client.program.ContextEnvironment;
import dev.runnel.client.program.PackagedProgram;
import dev.runnel.client.program.SavepointRestoreSettings;
import dev.runnel.client.rest.RestClusterClient;
import dev.runnel.client.rest.RestJobClient;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.core.execution.JobClient;
import dev.runnel.util.InstantiationUtil;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel run}: runs the program of a jar with a context environment whose jobs go to the cluster, each
 * compiled here, Java-serialized and posted with the jar (Flink's {@code run}). Attached, it waits for the
 * job's result and prints it; detached ({@code -d}) it prints the job's id and returns.
 */
@Command(name = "run", mixinStandardHelpOptions = true, description = "Runs a job's jar on the cluster.")
final class RunCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = {"-p", "--parallelism"}, paramLabel = "N",
            description = "The default parallelism of the job (default: parallelism.default, else 1).")
    private Integer parallelism;

    @Option(names = {"-d", "--detached"}, description = "Submit the job and return without waiting for it.")
    private boolean detached;

    @Option(names = {"-c", "--class"}, paramLabel = "<mainClass>",
            description = "The program's main class (default: the jar manifest's Main-Class).")
    private String mainClass;

    @Option(names = {"-s", "--fromSavepoint"}, paramLabel = "<savepointPath>",
            description = "Restore the job from this savepoint or retained checkpoint.")
    private String savepointPath;

    @Option(names = {"-n", "--allowNonRestoredState"},
            description = "Allow restoring a savepoint that holds state of operators the job no longer has.")
    private boolean allowNonRestoredState;

    @Option(names = "-D", paramLabel = "<key>=<value>", mapFallbackValue = "",
            description = "A configuration setting of the job, e.g. -D state.backend.type=rocksdb.")
    private Map<String, String> dynamicProperties = new LinkedHashMap<>();

    @Parameters(index = "0", paramLabel = "<jar>", description = "The job's jar.")
    private Path jar;

    @Parameters(index = "1..*", paramLabel = "<args>", description = "The program's arguments.")
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        if (parallelism != null && parallelism < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(), "The parallelism (-p) must be at least 1, got " + parallelism);
        }
        if (allowNonRestoredState && savepointPath == null) {
            cli.err().println("Note: --allowNonRestoredState has no effect without -s <savepointPath>.");
        }
        Configuration configuration = cli.configuration();
        RestClusterClient client = cluster.client(configuration);
        try (PackagedProgram program = PackagedProgram.of(jar, mainClass, args)) {
            ContextEnvironment.Options options = new ContextEnvironment.Options(
                    parallelism != null ? parallelism : configuration.get(CoreOptions.DEFAULT_PARALLELISM),
                    dynamicProperties, new SavepointRestoreSettings(savepointPath, allowNonRestoredState), detached,
                    jobGraph -> {
                        byte[] serialized = InstantiationUtil.serialize(jobGraph, "the job graph");
                        JobClient job = new RestJobClient(client, client.submitJob(serialized, List.of(program.getJar())));
                        cli.out().println("Job has been submitted with JobID " + job.getJobID());
                        return job;
                    }, null);
            List<JobClient> jobs = ProgramRunner.run(program, options);
            if (!detached) {
                for (JobClient job : jobs) {
                    printResult(job);
                }
            }
        }
        return 0;
    }

    /** The result of an attached job; the program's execute() already waited for it, so this returns at once. */
    private void printResult(JobClient job) throws Exception {
        JobExecutionResult result = job.getJobExecutionResult().get();
        cli.out().println("Program execution finished");
        cli.out().println("Job with JobID " + result.getJobID() + " has finished.");
        cli.out().println("Job Runtime: " + result.getNetRuntime() + " ms");
        if (!result.getAllAccumulatorResults().isEmpty()) {
            cli.out().println("Accumulator Results:");
            result.getAllAccumulatorResults().forEach((name, value) -> cli.out().println("- " + name + ": " + value));
        }
    }
}
