package dev.runnel.client.cli;

import dev.runnel.api.common.JobID;
import dev.runnel.client.rest.RestJobClient;
import dev.runnel.core.execution.SavepointFormatType;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel stop [--savepointPath dir] [--drain] <jobId>}: stop-with-savepoint; the job ends FINISHED after
 * the savepoint, and with {@code --drain} its sources first emit the maximum watermark so every window fires.
 */
@Command(name = "stop", mixinStandardHelpOptions = true,
        description = "Stops a job with a savepoint (stop-with-savepoint).")
final class StopCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = {"-p", "--savepointPath"}, paramLabel = "<savepointPath>",
            description = "Where the savepoint is written (default: execution.checkpointing.savepoint-dir).")
    private String savepointPath;

    @Option(names = {"-d", "--drain"},
            description = "Emit the maximum watermark before stopping, so every event-time timer and window fires.")
    private boolean drain;

    @Option(names = {"--type", "-type"}, paramLabel = "canonical|native", converter = FormatTypeConverter.class,
            description = "The savepoint's format (default: canonical).")
    private SavepointFormatType type = SavepointFormatType.DEFAULT;

    @Parameters(index = "0", paramLabel = "<jobId>", converter = JobIdConverter.class, description = "The job's id.")
    private JobID jobId;

    @Override
    public Integer call() throws Exception {
        cli.out().println("Suspending job \"" + jobId + "\" with a " + type + " savepoint" + (drain ? ", draining" : "")
                + ".");
        String path = new RestJobClient(cluster.client(cli.configuration()), jobId)
                .stopWithSavepoint(drain, savepointPath, type).get();
        cli.out().println("Savepoint completed. Path: " + path);
        return 0;
    }
}
