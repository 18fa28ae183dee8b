package dev.runnel.client.cli;

import dev.runnel.api.common.JobID;
import dev.runnel.client.rest.RestJobClient;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.ParentCommand;

/**
 * {@code runnel rescale <jobId> -p N}: Runnel's in-place rescale; every vertex of the running job moves to
 * parallelism N with its state redistributed by key group, without a restart. Returns once the new tasks run.
 */
@Command(name = "rescale", mixinStandardHelpOptions = true,
        description = "Rescales a running job in place to a new parallelism.")
final class RescaleCommand implements Callable<Integer> {

    @ParentCommand
    private CliFrontend cli;

    @picocli.CommandLine.Spec
    private picocli.CommandLine.Model.CommandSpec spec;

    @Mixin
    private ClusterOptions cluster;

    @Option(names = {"-p", "--parallelism"}, paramLabel = "N", required = true,
            description = "The job's new parallelism.")
    private int parallelism;

    @Parameters(index = "0", paramLabel = "<jobId>", converter = JobIdConverter.class, description = "The job's id.")
    private JobID jobId;

    @Override
    public Integer call() throws Exception {
        if (parallelism < 1) {
            throw new picocli.CommandLine.ParameterException(spec.commandLine(),
                    "The parallelism (-p) must be at least 1, got " + parallelism);
        }
        cli.out().println("Rescaling job " + jobId + " to parallelism " + parallelism + ".");
        new RestJobClient(cluster.client(cli.configuration()), jobId).rescale(parallelism).get();
        cli.out().println("Rescaled job " + jobId + ": every vertex now runs at parallelism " + parallelism + ".");
        return 0;
    }
}
