package dev.runnel.runtime.dispatcher;

import dev.runnel.runtime.cluster.ControlMessages.Heartbeat;
import dev.runnel.runtime.cluster.ControlMessages.RegisterTaskManager;
import dev.runnel.runtime.network.netty.RpcService;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.BiConsumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The JobManager's view of its TaskManagers: who registered, their slots (free or held by which job), their
 * last heartbeat and metrics. A TaskManager is lost when its connection closes or its heartbeats stop for
 * {@code heartbeat.timeout}; its slots are gone and every job with tasks on it hears of the loss. Slots are
 * handed out first-fit in registration order. Thread-safe (one lock; waiters are woken on every change).
 */
public final class TaskManagerRegistry {

    private static final Logger LOG = LoggerFactory.getLogger(TaskManagerRegistry.class);

    /** One registered TaskManager. Its mutable fields are guarded by the registry. */
    public static final class Registered {
        final RegisterTaskManager info;
        final RpcService.Connection connection;
        /** Per slot, the job holding it ({@code jobId/attempt}) or null. */
        final String[] slots;
        volatile long lastHeartbeat = System.currentTimeMillis();
        volatile Map<String, Double> metrics = Map.of();

        Registered(RegisterTaskManager info, RpcService.Connection connection) {
            this.info = info;
            this.connection = connection;
            this.slots = new String[info.slots()];
        }

        public String id() {
            return info.resourceId();
        }

        public RegisterTaskManager info() {
            return info;
        }

        public long lastHeartbeat() {
            return lastHeartbeat;
        }

        public Map<String, Double> metrics() {
            return metrics;
        }

        public void send(Serializable message) {
            connection.send(message);
        }

        @Override
        public String toString() {
            return "TaskManager '" + info.resourceId() + "' (" + connection.remoteAddress() + ")";
        }
    }

    /** One slot handed to a job. */
    public record Slot(Registered taskManager, int index) {}

    private final Map<String, Registered> taskManagers = new LinkedHashMap<>();
    private final List<BiConsumer<Registered, String>> lossListeners = new ArrayList<>();
    /** Loss listeners run here, outside the registry's lock: they fail tasks, which takes the jobs' locks. */
    private final java.util.concurrent.ExecutorService notifier = java.util.concurrent.Executors.newSingleThreadExecutor(r -> {
        Thread t = new Thread(r, "runnel-taskmanager-loss");
        t.setDaemon(true);
        return t;
    });

    public synchronized void register(RegisterTaskManager info, RpcService.Connection connection) {
        Registered old = taskManagers.get(info.resourceId());
        if (old != null && old.connection != connection) {
            // The same TaskManager id again: the old process is gone (or restarted); its tasks are lost.
            lost(old, "it registered again from " + connection.remoteAddress());
        }
        taskManagers.put(info.resourceId(), new Registered(info, connection));
        LOG.info("TaskManager '{}' registered from {} with {} slots", info.resourceId(), connection.remoteAddress(),
                info.slots());
        notifyAll();
    }

    public synchronized void heartbeat(Heartbeat heartbeat, RpcService.Connection connection) {
        Registered tm = taskManagers.get(heartbeat.resourceId());
        if (tm != null && tm.connection == connection) {
            tm.lastHeartbeat = System.currentTimeMillis();
            tm.metrics = heartbeat.metrics();
        }
    }

    /** The connection of a TaskManager closed. */
    public synchronized void disconnected(RpcService.Connection connection, Throwable cause) {
        for (Registered tm : List.copyOf(taskManagers.values())) {
            if (tm.connection == connection) {
                lost(tm, cause == null ? "its connection closed" : "its connection failed: " + cause.getMessage());
            }
        }
    }

    /** Declares lost every TaskManager silent for more than {@code timeoutMillis}. */
    public synchronized void checkHeartbeats(long timeoutMillis) {
        long now = System.currentTimeMillis();
        for (Registered tm : List.copyOf(taskManagers.values())) {
            if (now - tm.lastHeartbeat > timeoutMillis) {
                lost(tm, "it sent no heartbeat for " + (now - tm.lastHeartbeat) + " ms (heartbeat.timeout "
                        + timeoutMillis + " ms)");
                tm.connection.close();
            }
        }
    }

    /** {@code listener} hears of every lost TaskManager with the reason, on the registry's notifier thread. */
    public synchronized void onLoss(BiConsumer<Registered, String> listener) {
        lossListeners.add(listener);
    }

    private void lost(Registered tm, String reason) {
        if (taskManagers.get(tm.id()) != tm) {
            return;
        }
        taskManagers.remove(tm.id());
        LOG.warn("{} is lost: {}", tm, reason);
        for (BiConsumer<Registered, String> listener : lossListeners) {
            notifier.execute(() -> {
                try {
                    listener.accept(tm, reason);
                } catch (RuntimeException e) {
                    LOG.error("Handling the loss of {} failed", tm, e);
                }
            });
        }
        notifyAll();
    }

    /**
     * Takes {@code count} free slots for {@code owner}, waiting at most {@code timeoutMillis} for enough to be
     * free; fails with a message naming the job's need and the cluster's slots.
     */
    public synchronized List<Slot> allocate(String owner, String jobName, int count, long timeoutMillis)
            throws InterruptedException {
        long deadline = System.currentTimeMillis() + timeoutMillis;
        while (freeSlots() < count) {
            long left = deadline - System.currentTimeMillis();
            if (left <= 0) {
                throw new IllegalStateException(String.format("Job '%s' needs %d slots, but the cluster has %d free"
                        + " of %d (%d TaskManagers); waited %d ms (slot.request.timeout). Start more TaskManagers,"
                        + " give them more slots (taskmanager.numberOfTaskSlots) or lower the job's parallelism.",
                        jobName, count, freeSlots(), totalSlots(), taskManagers.size(), timeoutMillis));
            }
            wait(left);
        }
        List<Slot> slots = new ArrayList<>(count);
        for (Registered tm : taskManagers.values()) {
            for (int i = 0; i < tm.slots.length && slots.size() < count; i++) {
                if (tm.slots[i] == null) {
                    tm.slots[i] = owner;
                    slots.add(new Slot(tm, i));
                }
            }
        }
        return slots;
    }

    /** Gives back every slot {@code owner} holds. */
    public synchronized void release(String owner) {
        for (Registered tm : taskManagers.values()) {
            for (int i = 0; i < tm.slots.length; i++) {
                if (owner.equals(tm.slots[i])) {
                    tm.slots[i] = null;
                }
            }
        }
        notifyAll();
    }

    public synchronized List<Registered> taskManagers() {
        return List.copyOf(taskManagers.values());
    }

    public synchronized int totalSlots() {
        return taskManagers.values().stream().mapToInt(tm -> tm.slots.length).sum();
    }

    public synchronized int freeSlots() {
        int free = 0;
        for (Registered tm : taskManagers.values()) {
            for (String slot : tm.slots) {
                free += slot == null ? 1 : 0;
            }
        }
        return free;
    }

    public synchronized int freeSlots(Registered tm) {
        int free = 0;
        for (String slot : tm.slots) {
            free += slot == null ? 1 : 0;
        }
        return free;
    }

    public synchronized Registered byConnection(RpcService.Connection connection) {
        for (Registered tm : taskManagers.values()) {
            if (tm.connection == connection) {
                return tm;
            }
        }
        return null;
    }
}
