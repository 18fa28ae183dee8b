package dev.runnel.client.cli;

import dev.runnel.api.common.JobID;
import dev.runnel.client.rest.RestClusterClient;
import dev.runnel.client.rest.RestJobClient;
import dev.runnel.core.execution.SavepointFormatType;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel savepoint <jobId> [dir]}: takes a savepoint of a running job, which goes on, and prints its
 * path once it completed. Without a directory the cluster's {@code execution.checkpointing.savepoint-dir}.
 */
@Command(name = "savepoint", mixinStandardHelpOptions = true, description = "Takes a savepoint of a running job.")
final class SavepointCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = {"--type", "-type"}, paramLabel = "canonical|native", converter = FormatTypeConverter.class,
            description = "The savepoint's format (default: canonical).")
    private SavepointFormatType type = SavepointFormatType.DEFAULT;

    @Parameters(index = "0", paramLabel = "<jobId>", converter = JobIdConverter.class, description = "The job's id.")
    private JobID jobId;

    @Parameters(index = "1", arity = "0..1", paramLabel = "<targetDirectory>",
            description = "Where the savepoint is written (default: execution.checkpointing.savepoint-dir).")
    private String targetDirectory;

    @Override
    public Integer call() throws Exception {
        RestClusterClient client = cluster.client(cli.configuration());
        cli.out().println("Triggering savepoint for job " + jobId + ".");
        cli.out().println("Waiting for response...");
        String path = new RestJobClient(client, jobId).triggerSavepoint(targetDirectory, type).get();
        cli.out().println("Savepoint completed. Path: " + path);
        cli.out().println("You can resume your program from this savepoint with the run command (-s " + path + ").");
        return 0;
    }
}
