package dev.runnel.runtime.entrypoint;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.HeartbeatManagerOptions;
import dev.runnel.configuration.JobManagerOptions;
import dev.runnel.configuration.SecurityOptions;
import dev.runnel.runtime.dispatcher.Dispatcher;
import dev.runnel.runtime.network.netty.RpcService;
import java.net.InetSocketAddress;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager process of a standalone cluster (Flink's class name): the control server TaskManagers register
 * with ({@code jobmanager.rpc.port} on {@code jobmanager.bind-host}, loopback by default), the
 * {@link Dispatcher} that runs the submitted jobs, the heartbeat check, and the REST API. Runs until killed
 * (SIGTERM cancels the jobs and closes the servers).
 */
public final class StandaloneSessionClusterEntrypoint implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(StandaloneSessionClusterEntrypoint.class);

    private final Dispatcher dispatcher;
    private final RpcService rpc;
    private final InetSocketAddress rpcAddress;
    private final ScheduledExecutorService heartbeats;
    private final AutoCloseable rest;
    private final int restPort;

    /** Starts every server of the JobManager; fails with a message naming the setting that is wrong. */
    public StandaloneSessionClusterEntrypoint(Configuration configuration) throws Exception {
        String secret = configuration.get(SecurityOptions.CLUSTER_SECRET);
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("The JobManager needs " + SecurityOptions.CLUSTER_SECRET.key()
                    + " (the same random string on every process of the cluster; bin/start-cluster.sh writes one into"
                    + " conf/runnel.yaml on its first start)");
        }
        long interval = configuration.get(HeartbeatManagerOptions.HEARTBEAT_INTERVAL).toMillis();
        long timeout = configuration.get(HeartbeatManagerOptions.HEARTBEAT_TIMEOUT).toMillis();
        this.dispatcher = new Dispatcher(configuration, interval);
        this.rpc = new RpcService("jobmanager", configuration, 10_000);
        this.rpcAddress = rpc.listen(configuration.get(JobManagerOptions.BIND_HOST),
                configuration.get(JobManagerOptions.PORT), dispatcher.handler());
        this.heartbeats = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runnel-heartbeat-check");
            t.setDaemon(true);
            return t;
        });
        heartbeats.scheduleWithFixedDelay(() -> dispatcher.registry().checkHeartbeats(timeout), interval, interval,
                TimeUnit.MILLISECONDS);
        RestServers.Started started = RestServers.start(configuration, dispatcher);
        this.rest = started.server();
        this.restPort = started.port();
        LOG.info("JobManager started: control plane on {}, REST API on port {}", rpcAddress, restPort);
    }

    public Dispatcher dispatcher() {
        return dispatcher;
    }

    public InetSocketAddress rpcAddress() {
        return rpcAddress;
    }

    public int restPort() {
        return restPort;
    }

    @Override
    public void close() {
        dispatcher.shutdown();
        heartbeats.shutdownNow();
        try {
            rest.close();
        } catch (Exception e) {
            LOG.warn("Closing the REST server: {}", e.toString());
        }
        rpc.close();
    }

    public static void main(String[] args) {
        StandaloneSessionClusterEntrypoint jobManager;
        try {
            jobManager = new StandaloneSessionClusterEntrypoint(EntrypointArguments.parse("jobmanager", args));
        } catch (Exception e) {
            LOG.error("The JobManager cannot start: {}", e.getMessage(), e);
            System.err.println("The JobManager cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            LOG.info("JobManager stopping");
            jobManager.close();
            stopped.countDown();
        }, "runnel-jobmanager-shutdown"));
        try {
            stopped.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
