package dev.runnel.client.cli;

import dev.runnel.client.program.ContextEnvironment;
import dev.runnel.client.program.PackagedProgram;
import dev.runnel.client.program.SavepointRestoreSettings;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.graph.ExecutionPlan;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel info}: prints the plan of a jar's job as {@code env.getExecutionPlan()} gives it (vertices,
 * edges and why each edge breaks a chain), without running it: the program's {@code execute()} is stopped
 * where the job would be submitted. Needs no cluster.
 */
@Command(name = "info", mixinStandardHelpOptions = true,
        description = "Prints the execution plan of a job's jar, with the reason for every chain break.")
final class InfoCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @Option(names = {"-p", "--parallelism"}, paramLabel = "N",
            description = "The default parallelism (default: parallelism.default, else 1).")
    private Integer parallelism;

    @Option(names = {"-c", "--class"}, paramLabel = "<mainClass>",
            description = "The program's main class (default: the jar manifest's Main-Class).")
    private String mainClass;

    @Parameters(index = "0", paramLabel = "<jar>", description = "The job's jar.")
    private Path jar;

    @Parameters(index = "1..*", paramLabel = "<args>", description = "The program's arguments.")
    private List<String> args = new ArrayList<>();

    @Override
    public Integer call() throws Exception {
        try (PackagedProgram program = PackagedProgram.of(jar, mainClass, args)) {
            ContextEnvironment.Options options = new ContextEnvironment.Options(parallelism != null ? parallelism
                    : cli.configuration().get(CoreOptions.DEFAULT_PARALLELISM), Map.of(),
                    SavepointRestoreSettings.NONE, false, jobGraph -> {
                        throw new PlanCaptured(jobGraph);
                    }, null);
            try {
                ProgramRunner.run(program, options);
            } catch (PlanCaptured plan) {
                cli.out().println(ExecutionPlan.toJson(plan.jobGraph));
                return 0;
            }
        }
        throw new IllegalStateException("unreachable: the program ran without its plan being captured");
    }

    /**
     * Thrown out of the program's {@code execute()} to stop it once the plan is known (Flink's
     * {@code ProgramAbortException}); an {@link Error} so that the program's own {@code catch (Exception)}
     * does not swallow it.
     */
    private static final class PlanCaptured extends Error {
        private static final long serialVersionUID = 1L;
        private final transient JobGraph jobGraph;

        PlanCaptured(JobGraph jobGraph) {
            super("plan captured", null, false, false);
            this.jobGraph = jobGraph;
        }
    }
}
