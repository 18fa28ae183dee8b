package dev.runnel.client.cli;

import dev.runnel.client.rest.RestClusterClient.JobSummary;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.ParentCommand;

/** {@code runnel list}: the cluster's jobs, running ones first, as Flink's {@code list -a} prints them. */
@Command(name = "list", mixinStandardHelpOptions = true, description = "Lists the cluster's jobs.")
final class ListCommand implements Callable<Integer> {

    private static final DateTimeFormatter TIME = DateTimeFormatter.ofPattern("dd.MM.yyyy HH:mm:ss")
            .withZone(ZoneId.systemDefault());

    @ParentCommand
    private CliFrontend cli;

    @Mixin
    private ClusterOptions cluster;

    @Override
    public Integer call() {
        List<JobSummary> jobs = cluster.client(cli.configuration()).listJobs().stream()
                .sorted(Comparator.comparingLong(JobSummary::startTime)).toList();
        section("Running/Restarting Jobs", jobs.stream().filter(j -> !j.state().isGloballyTerminalState()).toList(),
                "No running jobs.");
        section("Terminated Jobs", jobs.stream().filter(j -> j.state().isGloballyTerminalState()).toList(),
                "No terminated jobs.");
        return 0;
    }

    private void section(String title, List<JobSummary> jobs, String none) {
        if (jobs.isEmpty()) {
            cli.out().println(none);
            return;
        }
        String header = "------------------ " + title + " -------------------";
        cli.out().println(header);
        for (JobSummary job : jobs) {
            cli.out().println(TIME.format(Instant.ofEpochMilli(Math.max(0, job.startTime()))) + " : " + job.jobId()
                    + " : " + job.name() + " (" + job.state() + ")");
        }
        cli.out().println("-".repeat(header.length()));
    }
}
