package dev.runnel.dist.scripts;

import com.sun.net.httpserver.HttpServer;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.GlobalConfiguration;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A stand-in for the JobManager process in the tests of bin/'s scripts: takes {@code --configDir} as the real
 * one, serves {@code GET /overview} on {@code rest.port} with the number of {@link StandInTaskManager}s that
 * registered ({@code POST /register}, each with its slots), and runs until killed. What the scripts need of a
 * JobManager, without its control plane, so the scripts are tested on their own.
 */
public final class StandInJobManager {

    private StandInJobManager() {}

    public static void main(String[] args) throws Exception {
        Configuration conf = GlobalConfiguration.loadConfiguration(args[1]);
        if (conf.getString("security.cluster.secret", "").isBlank()) {
            System.err.println("stand-in JobManager: no security.cluster.secret");
            System.exit(1);
        }
        AtomicInteger taskManagers = new AtomicInteger();
        AtomicInteger slots = new AtomicInteger();
        HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1",
                Integer.parseInt(conf.getString("rest.port", "8081"))), 0);
        server.createContext("/register", exchange -> {
            slots.addAndGet(Integer.parseInt(new String(exchange.getRequestBody().readAllBytes(),
                    StandardCharsets.UTF_8).strip()));
            taskManagers.incrementAndGet();
            exchange.sendResponseHeaders(204, -1);
            exchange.close();
        });
        server.createContext("/overview", exchange -> {
            byte[] body = ("{\"taskmanagers\":" + taskManagers.get() + ",\"slots-total\":" + slots.get()
                    + ",\"slots-available\":" + slots.get() + "}").getBytes(StandardCharsets.UTF_8);
            exchange.sendResponseHeaders(200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        System.out.println("stand-in JobManager serving /overview on port " + server.getAddress().getPort());
        new CountDownLatch(1).await();
    }
}
