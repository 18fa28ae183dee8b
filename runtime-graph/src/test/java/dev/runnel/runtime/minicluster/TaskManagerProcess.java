package dev.runnel.runtime.minicluster;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;

/**
 * A TaskManager in a process of its own, for the two-process test: starts its network shuffle, says
 * {@code READY <data port>}, learns the other TaskManager's port from stdin ({@code PEER <port>}), runs its
 * share of {@link EveryPartitionerJob} (the subtasks placed on it), says {@code DONE}, and keeps its data
 * server up until stdin says {@code EXIT}, so the peer can still read what it sent. Until the cluster issue
 * brings a JobManager, this launcher hands both processes the plan.
 *
 * <p>Arguments: {@code <index 0|1> <output dir> <records per producer>}; the cluster secret comes from the
 * environment variable {@code RUNNEL_TEST_SECRET}.
 */
public final class TaskManagerProcess {

    private TaskManagerProcess() {}

    public static void main(String[] args) throws Exception {
        int index = Integer.parseInt(args[0]);
        Path output = Path.of(args[1]);
        long records = Long.parseLong(args[2]);
        Configuration conf = new Configuration()
                .setString("security.cluster.secret", System.getenv("RUNNEL_TEST_SECRET"))
                .setString("taskmanager.resource-id", "tm-" + index);
        ShuffleEnvironment shuffle = EmbeddedRuntime.shuffle(conf, "netty");
        int exit = 1;
        try {
            System.out.println("READY " + shuffle.dataAddress().getPort());
            System.out.flush();
            BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
            String peer = in.readLine();
            int peerPort = Integer.parseInt(peer.substring("PEER ".length()).trim());
            List<TaskLocation> taskManagers = new ArrayList<>();
            for (int i = 0; i < 2; i++) {
                taskManagers.add(i == index ? shuffle.location(0)
                        : new TaskLocation("tm-" + i, new InetSocketAddress("127.0.0.1", peerPort), 0));
            }
            JobGraph job = EveryPartitionerJob.build(records, output);
            EmbeddedJob share = new EmbeddedJob(job, conf, taskManagers, Map.of(index, shuffle),
                    EmbeddedRuntime.stateBackend(job, conf));
            share.start();
            share.getJobExecutionResult().get(60, TimeUnit.SECONDS);
            System.out.println("DONE");
            System.out.flush();
            in.readLine(); // EXIT
            exit = 0;
        } catch (Throwable t) {
            System.out.println("FAILED " + t);
            t.printStackTrace(System.out);
        } finally {
            shuffle.close();
        }
        System.exit(exit);
    }
}
