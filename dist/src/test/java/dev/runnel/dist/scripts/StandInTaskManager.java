package dev.runnel.dist.scripts;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.GlobalConfiguration;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CountDownLatch;

/**
 * A stand-in for the TaskManager process in the tests of bin/'s scripts: registers its
 * {@code taskmanager.numberOfTaskSlots} with the {@link StandInJobManager} of the same configuration (retrying
 * while that one starts, for at most 30 s), then runs until killed. With {@code standin.taskmanager.register:
 * false} it never registers (a cluster that does not become ready).
 */
public final class StandInTaskManager {

    private StandInTaskManager() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = GlobalConfiguration.loadConfiguration(args[1]);
        if (conf.getString("standin.taskmanager.register", "true").equals("false")) {
            System.out.println("stand-in TaskManager: not registering, as configured");
            new CountDownLatch(1).await();
        }
        URI register = URI.create("http://127.0.0.1:" + conf.getString("rest.port", "8081") + "/register");
        HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
        long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
        while (true) {
            try {
                http.send(HttpRequest.newBuilder(register).POST(HttpRequest.BodyPublishers.ofString(
                        conf.getString("taskmanager.numberOfTaskSlots", "1"))).build(),
                        HttpResponse.BodyHandlers.discarding());
                break;
            } catch (java.io.IOException e) {
                if (System.nanoTime() > deadline) {
                    System.err.println("stand-in TaskManager: no JobManager at " + register);
                    System.exit(1);
                }
                Thread.sleep(100);
            }
        }
        System.out.println("stand-in TaskManager registered at " + register);
        new CountDownLatch(1).await();
    }
}
