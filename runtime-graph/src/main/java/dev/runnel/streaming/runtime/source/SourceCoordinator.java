package dev.runnel.streaming.runtime.source;

import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.util.ArrayList;
import java.util.concurrent.CompletableFuture;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.Callable;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.BiConsumer;
import java.util.function.Consumer;

/**
 * Runs a source's {@link SplitEnumerator} on a thread of its own and relays between it and the
 * readers: registrations and split requests come in from task threads, split assignments go out
 * through each reader's {@link SourceReaderGateway}. Every enumerator call happens on the
 * coordinator thread, one at a time.
 *
 * <p>Between a checkpoint's snapshot of the enumerator and the injection of its barriers at the source tasks,
 * events to the readers are held back ({@link #reopenGateways}), as Flink's coordinator closes its gateways.
 *
 * <p>A failure of the enumerator is reported to {@code failureHandler}, which fails the job.
 */
public final class SourceCoordinator<SplitT extends SourceSplit, EnumChkT> implements SourceCoordinatorGateway, AutoCloseable {

    private final String sourceName;
    private final Source<?, SplitT, EnumChkT> source;
    private final int parallelism;
    private final Consumer<Throwable> failureHandler;
    private final ScheduledThreadPoolExecutor executor;
    private final Map<Integer, SourceReaderGateway<SplitT>> readers = new HashMap<>();
    private SplitEnumerator<SplitT, EnumChkT> enumerator;
    /** The checkpoint whose barriers are not at the readers yet, or -1; events to readers wait meanwhile. */
    private long heldFor = -1;
    private final List<Runnable> held = new ArrayList<>();
    private boolean failed;

    public SourceCoordinator(String sourceName, Source<?, SplitT, EnumChkT> source, int parallelism,
            Consumer<Throwable> failureHandler) {
        this.sourceName = sourceName;
        this.source = source;
        this.parallelism = parallelism;
        this.failureHandler = failureHandler;
        this.executor = new ScheduledThreadPoolExecutor(1, r -> {
            Thread t = new Thread(r, "SourceCoordinator-" + sourceName);
            t.setDaemon(true);
            return t;
        });
        // Calls an enumerator scheduled (callAsync) stop with the coordinator; they must not hold up close().
        executor.setExecuteExistingDelayedTasksAfterShutdownPolicy(false);
        executor.setContinueExistingPeriodicTasksAfterShutdownPolicy(false);
    }

    /**
     * Creates and starts the enumerator; restored from {@code checkpoint} (bytes written by
     * {@link #snapshotAsync}) when not null.
     */
    public void start(byte[] checkpoint) {
        run("start", () -> {
            enumerator = checkpoint == null ? source.createEnumerator(new Context())
                    : source.restoreEnumerator(new Context(), deserializeCheckpoint(checkpoint));
            enumerator.start();
        });
    }

    /** Creates and starts a fresh enumerator. */
    public void start() {
        start(null);
    }

    /**
     * Snapshots the enumerator for checkpoint {@code checkpointId} on the coordinator thread, after every
     * call already queued, so every split it assigned before is in a reader's mailbox ahead of the
     * checkpoint's trigger. The bytes: the serializer's version, then its bytes. Thread-safe.
     */
    public CompletableFuture<byte[]> snapshotAsync(long checkpointId) {
        CompletableFuture<byte[]> result = new CompletableFuture<>();
        executor.execute(() -> {
            try {
                if (failed || enumerator == null) {
                    throw new IllegalStateException("the split enumerator of source '" + sourceName + "' is not running");
                }
                SimpleVersionedSerializer<EnumChkT> serializer = source.getEnumeratorCheckpointSerializer();
                byte[] bytes = serializer.serialize(enumerator.snapshotState(checkpointId));
                // Until the checkpoint's barriers are at the readers, assignments would reach a reader before its
                // snapshot while the enumerator's says "not assigned": a restore would hand them out twice.
                heldFor = checkpointId;
                DataOutputSerializer out = new DataOutputSerializer(bytes.length + 8);
                out.writeInt(serializer.getVersion());
                out.writeInt(bytes.length);
                out.write(bytes);
                result.complete(out.getCopyOfBuffer());
            } catch (Throwable t) {
                result.completeExceptionally(t);
            }
        });
        return result;
    }

    /**
     * Lets split assignments through to the readers again after checkpoint {@code checkpointId}'s barriers were
     * injected at the source tasks (so they reach the readers after the barrier, as the enumerator's snapshot
     * counts them as not assigned yet). Thread-safe; queued behind everything the coordinator does now.
     */
    public void reopenGateways(long checkpointId) {
        executor.execute(() -> {
            if (heldFor != checkpointId) {
                return;
            }
            heldFor = -1;
            List<Runnable> release = new ArrayList<>(held);
            held.clear();
            release.forEach(Runnable::run);
        });
    }

    /** Sends an event to a reader now, or holds it while a checkpoint is between its two halves. */
    private void deliver(Runnable event) {
        if (heldFor >= 0) {
            held.add(event);
        } else {
            event.run();
        }
    }

    private EnumChkT deserializeCheckpoint(byte[] checkpoint) throws java.io.IOException {
        DataInputDeserializer in = new DataInputDeserializer(checkpoint);
        int version = in.readInt();
        byte[] bytes = new byte[in.readInt()];
        in.readFully(bytes);
        return source.getEnumeratorCheckpointSerializer().deserialize(version, bytes);
    }

    /** A reader is ready to receive splits. Thread-safe. */
    @Override
    @SuppressWarnings("unchecked")
    public void registerReader(int subtask, SourceReaderGateway<?> gateway) {
        run("registering reader " + subtask, () -> {
            readers.put(subtask, (SourceReaderGateway<SplitT>) gateway);
            enumerator.addReader(subtask);
        });
    }

    /** Reader {@code subtask} asks for a split. Thread-safe. */
    @Override
    public void requestSplit(int subtask) {
        run("split request of reader " + subtask, () -> enumerator.handleSplitRequest(subtask, "localhost"));
    }

    private void run(String what, ThrowingAction action) {
        executor.execute(() -> runNow(what, action));
    }

    /** Runs {@code action} on the coordinator thread (the caller is on it); a failure fails the job. */
    private void runNow(String what, ThrowingAction action) {
        if (failed) {
            // The enumerator already failed (and failed the job); later calls have nothing to act on.
            return;
        }
        try {
            action.run();
        } catch (Throwable t) {
            failed = true;
            failureHandler.accept(new IllegalStateException("The split enumerator of source '" + sourceName
                    + "' failed in " + what + ": " + t, t));
        }
    }

    @Override
    public void close() {
        executor.execute(() -> {
            if (enumerator != null) {
                try {
                    enumerator.close();
                } catch (Exception e) {
                    // closing after the job ended; nothing left to fail
                }
            }
        });
        executor.shutdown();
        try {
            executor.awaitTermination(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    @FunctionalInterface
    private interface ThrowingAction {
        void run() throws Exception;
    }

    private final class Context implements SplitEnumeratorContext<SplitT> {

        @Override
        public int currentParallelism() {
            return parallelism;
        }

        @Override
        public Set<Integer> registeredReaders() {
            return new TreeSet<>(readers.keySet());
        }

        @Override
        public void assignSplit(SplitT split, int subtask) {
            SourceReaderGateway<SplitT> gateway = gateway(subtask);
            List<SplitT> splits = new ArrayList<>(List.of(split));
            deliver(() -> gateway.assignSplits(splits));
        }

        @Override
        public void assignSplits(Map<Integer, List<SplitT>> assignment) {
            assignment.forEach((subtask, splits) -> {
                SourceReaderGateway<SplitT> gateway = gateway(subtask);
                List<SplitT> copy = new ArrayList<>(splits);
                deliver(() -> gateway.assignSplits(copy));
            });
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            SourceReaderGateway<SplitT> gateway = gateway(subtask);
            deliver(gateway::signalNoMoreSplits);
        }

        @Override
        public <T> void callAsync(Callable<T> callable, BiConsumer<T, Throwable> handler, long initialDelayMillis,
                long periodMillis) {
            if (initialDelayMillis < 0 || periodMillis < 0) {
                throw new IllegalArgumentException("callAsync: the delay (" + initialDelayMillis + " ms) and period ("
                        + periodMillis + " ms) must not be negative");
            }
            Runnable call = () -> runNow("a call it scheduled (callAsync)", () -> {
                T result;
                try {
                    result = callable.call();
                } catch (Throwable t) {
                    handler.accept(null, t);
                    return;
                }
                handler.accept(result, null);
            });
            if (periodMillis == 0) {
                executor.schedule(call, initialDelayMillis, TimeUnit.MILLISECONDS);
            } else {
                executor.scheduleWithFixedDelay(call, initialDelayMillis, periodMillis, TimeUnit.MILLISECONDS);
            }
        }

        private SourceReaderGateway<SplitT> gateway(int subtask) {
            SourceReaderGateway<SplitT> gateway = readers.get(subtask);
            if (gateway == null) {
                throw new IllegalStateException("Source '" + sourceName + "': reader " + subtask
                        + " is not registered; assign splits only to registered readers (see registeredReaders()).");
            }
            return gateway;
        }
    }
}
