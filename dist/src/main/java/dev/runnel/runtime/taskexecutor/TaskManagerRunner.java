package dev.runnel.runtime.taskexecutor;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.JobManagerOptions;
import dev.runnel.configuration.NettyShuffleEnvironmentOptions;
import dev.runnel.configuration.SecurityOptions;
import dev.runnel.configuration.TaskManagerOptions;
import dev.runnel.runtime.cluster.ControlMessages.Heartbeat;
import dev.runnel.runtime.cluster.ControlMessages.RegisterTaskManager;
import dev.runnel.runtime.cluster.ControlMessages.RegistrationAccepted;
import dev.runnel.runtime.cluster.ControlMessages.RegistrationRefused;
import dev.runnel.runtime.entrypoint.EntrypointArguments;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.network.netty.RpcService;
import java.io.IOException;
import java.io.Serializable;
import java.net.InetSocketAddress;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The TaskManager process of a standalone cluster (Flink's class name): connects to the JobManager at
 * {@code jobmanager.rpc.address:jobmanager.rpc.port}, registers its {@code taskmanager.numberOfTaskSlots}
 * slots, sends heartbeats with its task metrics, and runs what the JobManager deploys ({@link TaskExecutor}).
 * When the JobManager goes away its tasks stop and it reconnects, for up to {@code taskmanager.registration.timeout}.
 * A refused registration (another cluster's secret is refused earlier, in the handshake) ends the process.
 */
public final class TaskManagerRunner implements AutoCloseable {

    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerRunner.class);

    private final Configuration configuration;
    private final String resourceId;
    private final RpcService rpc;
    private final TaskExecutor executor;
    private final ScheduledExecutorService scheduler;
    private final InetSocketAddress jobManagerAddress;
    private final long registrationTimeoutMillis;
    private final CompletableFuture<String> terminated = new CompletableFuture<>();
    private volatile RpcService.Connection connection;
    private volatile ScheduledFuture<?> heartbeat;
    private volatile boolean closed;
    private dev.runnel.runtime.rest.prometheus.PrometheusReporter prometheus;

    public TaskManagerRunner(Configuration configuration) throws IOException {
        String secret = configuration.get(SecurityOptions.CLUSTER_SECRET);
        if (secret == null || secret.isBlank()) {
            throw new IllegalArgumentException("The TaskManager needs " + SecurityOptions.CLUSTER_SECRET.key()
                    + " (the same value as the JobManager's; bin/start-cluster.sh writes one into conf/runnel.yaml)");
        }
        String id = configuration.get(TaskManagerOptions.TASK_MANAGER_RESOURCE_ID);
        this.resourceId = id == null || id.isBlank() ? "tm-" + UUID.randomUUID().toString().substring(0, 8) : id;
        this.configuration = configuration.copy();
        this.configuration.set(TaskManagerOptions.TASK_MANAGER_RESOURCE_ID, resourceId);
        if (!this.configuration.toMap().containsKey(NettyShuffleEnvironmentOptions.DATA_BIND_HOST.key())) {
            this.configuration.setString(NettyShuffleEnvironmentOptions.DATA_BIND_HOST.key(),
                    configuration.get(TaskManagerOptions.HOST));
        }
        Path work = Path.of(configuration.get(EmbeddedRuntime.TMP_DIRS).split(",")[0].trim(), "runnel-" + resourceId);
        Files.createDirectories(work);
        this.executor = new TaskExecutor(resourceId, this.configuration, work);
        this.rpc = new RpcService(resourceId, this.configuration, 10_000);
        this.scheduler = Executors.newSingleThreadScheduledExecutor(r -> {
            Thread t = new Thread(r, "runnel-taskmanager-" + resourceId);
            t.setDaemon(true);
            return t;
        });
        this.jobManagerAddress = new InetSocketAddress(configuration.get(JobManagerOptions.ADDRESS),
                configuration.get(JobManagerOptions.PORT));
        this.registrationTimeoutMillis = configuration.get(TaskManagerOptions.REGISTRATION_TIMEOUT).toMillis();
    }

    public String resourceId() {
        return resourceId;
    }

    /** Starts connecting; completes {@link #terminated()} if registration never succeeds or is refused. */
    public void start() {
        if (configuration.toMap().containsKey(dev.runnel.runtime.rest.prometheus.PrometheusReporter.PORT.key())) {
            try {
                prometheus = dev.runnel.runtime.rest.prometheus.PrometheusReporter.start(configuration,
                        executor::prometheusText);
                LOG.info("TaskManager {}: Prometheus metrics on port {}", resourceId, prometheus.port());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            } catch (RuntimeException e) {
                LOG.warn("TaskManager {}: no Prometheus endpoint: {}", resourceId, e.getMessage());
            }
        }
        scheduler.execute(() -> connect(System.currentTimeMillis() + registrationTimeoutMillis));
    }

    /** Completes with the reason when the TaskManager gives up (refused, or the JobManager never answered). */
    public CompletableFuture<String> terminated() {
        return terminated;
    }

    private void connect(long deadline) {
        if (closed) {
            return;
        }
        try {
            connection = rpc.connect(jobManagerAddress, new Handler(), 5_000);
            executor.connectedTo(connection);
            int slots = configuration.get(TaskManagerOptions.NUM_TASK_SLOTS);
            connection.send(new RegisterTaskManager(resourceId, configuration.get(TaskManagerOptions.HOST), slots,
                    Runtime.getRuntime().maxMemory(), Runtime.getRuntime().availableProcessors(), -1));
        } catch (IOException e) {
            if (System.currentTimeMillis() > deadline) {
                String reason = "TaskManager " + resourceId + " could not register with the JobManager at "
                        + jobManagerAddress + " within " + registrationTimeoutMillis + " ms ("
                        + TaskManagerOptions.REGISTRATION_TIMEOUT.key() + "): " + e.getMessage();
                LOG.error(reason);
                terminated.complete(reason);
                return;
            }
            LOG.info("TaskManager {}: the JobManager at {} is not reachable yet ({}); retrying", resourceId,
                    jobManagerAddress, e.getMessage());
            scheduler.schedule(() -> connect(deadline), 1, TimeUnit.SECONDS);
        }
    }

    /** Messages from the JobManager. */
    private final class Handler implements RpcService.Handler {
        @Override
        public void onMessage(RpcService.Connection from, Serializable message) {
            if (message instanceof RegistrationAccepted accepted) {
                LOG.info("TaskManager {} registered with the JobManager at {}", resourceId, from.remoteAddress());
                long interval = Math.max(100, accepted.heartbeatIntervalMillis());
                heartbeat = scheduler.scheduleWithFixedDelay(() -> {
                    RpcService.Connection current = connection;
                    if (current != null && current.isOpen()) {
                        current.send(new Heartbeat(resourceId, executor.metricSnapshot()));
                    }
                }, 0, interval, TimeUnit.MILLISECONDS);
            } else if (message instanceof RegistrationRefused refused) {
                String reason = "The JobManager refused TaskManager " + resourceId + ": " + refused.reason();
                LOG.error(reason);
                terminated.complete(reason);
            } else {
                executor.onMessage(message);
            }
        }

        @Override
        public void onDisconnected(RpcService.Connection from, Throwable cause) {
            if (heartbeat != null) {
                heartbeat.cancel(false);
            }
            if (closed || terminated.isDone()) {
                return;
            }
            LOG.warn("TaskManager {} lost the JobManager at {} ({}); its tasks stop, reconnecting", resourceId,
                    jobManagerAddress, cause == null ? "connection closed" : cause.getMessage());
            executor.jobManagerLost();
            scheduler.schedule(() -> connect(System.currentTimeMillis() + registrationTimeoutMillis), 1,
                    TimeUnit.SECONDS);
        }
    }

    @Override
    public void close() {
        closed = true;
        RpcService.Connection current = connection;
        if (current != null) {
            current.close();
        }
        executor.close();
        if (prometheus != null) {
            prometheus.close();
        }
        scheduler.shutdownNow();
        rpc.close();
    }

    public static void main(String[] args) {
        TaskManagerRunner taskManager;
        try {
            taskManager = new TaskManagerRunner(EntrypointArguments.parse("taskmanager", args));
        } catch (Exception e) {
            LOG.error("The TaskManager cannot start: {}", e.getMessage(), e);
            System.err.println("The TaskManager cannot start: " + e.getMessage());
            System.exit(1);
            return;
        }
        Runtime.getRuntime().addShutdownHook(new Thread(taskManager::close, "runnel-taskmanager-shutdown"));
        taskManager.start();
        String reason = taskManager.terminated().join();
        System.err.println(reason);
        System.exit(2);
    }
}
