package dev.runnel.client.cli;

import dev.runnel.api.common.JobID;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/** {@code runnel cancel <jobId>}: asks the JobManager to cancel a job; returns once the request is accepted. */
@Command(name = "cancel", mixinStandardHelpOptions = true, description = "Cancels a job.")
final class CancelCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @Mixin
    private ClusterOptions cluster;

    @Parameters(index = "0", paramLabel = "<jobId>", converter = JobIdConverter.class, description = "The job's id.")
    private JobID jobId;

    @Override
    public Integer call() {
        cli.out().println("Cancelling job " + jobId + ".");
        cluster.client(cli.configuration()).cancel(jobId);
        cli.out().println("Cancelled job " + jobId + ".");
        return 0;
    }
}
