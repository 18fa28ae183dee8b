package dev.runnel.streaming.runtime.source;

import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

/**
 * Runs a source's {@link SplitEnumerator} on a thread of its own and relays between it and the
 * readers: registrations and split requests come in from task threads, split assignments go out
 * through each reader's {@link SourceReaderGateway}. Every enumerator call happens on the
 * coordinator thread, one at a time.
 *
 * <p>A failure of the enumerator is reported to {@code failureHandler}, which fails the job.
 */
public final class SourceCoordinator<SplitT extends SourceSplit, EnumChkT> implements AutoCloseable {

    private final String sourceName;
    private final Source<?, SplitT, EnumChkT> source;
    private final int parallelism;
    private final Consumer<Throwable> failureHandler;
    private final ExecutorService executor;
    private final Map<Integer, SourceReaderGateway<SplitT>> readers = new HashMap<>();
    private SplitEnumerator<SplitT, EnumChkT> enumerator;
    private boolean failed;

    public SourceCoordinator(String sourceName, Source<?, SplitT, EnumChkT> source, int parallelism,
            Consumer<Throwable> failureHandler) {
        this.sourceName = sourceName;
        this.source = source;
        this.parallelism = parallelism;
        this.failureHandler = failureHandler;
        this.executor = Executors.newSingleThreadExecutor(r -> {
            Thread t = new Thread(r, "SourceCoordinator-" + sourceName);
            t.setDaemon(true);
            return t;
        });
    }

    /** Creates and starts the enumerator. */
    public void start() {
        run("start", () -> {
            enumerator = source.createEnumerator(new Context());
            enumerator.start();
        });
    }

    /** A reader is ready to receive splits. Thread-safe. */
    @SuppressWarnings("unchecked")
    public void registerReader(int subtask, SourceReaderGateway<?> gateway) {
        run("registering reader " + subtask, () -> {
            readers.put(subtask, (SourceReaderGateway<SplitT>) gateway);
            enumerator.addReader(subtask);
        });
    }

    /** Reader {@code subtask} asks for a split. Thread-safe. */
    public void requestSplit(int subtask) {
        run("split request of reader " + subtask, () -> enumerator.handleSplitRequest(subtask, "localhost"));
    }

    private void run(String what, ThrowingAction action) {
        executor.execute(() -> {
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
        });
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
            gateway(subtask).assignSplits(new ArrayList<>(List.of(split)));
        }

        @Override
        public void assignSplits(Map<Integer, List<SplitT>> assignment) {
            assignment.forEach((subtask, splits) -> gateway(subtask).assignSplits(new ArrayList<>(splits)));
        }

        @Override
        public void signalNoMoreSplits(int subtask) {
            gateway(subtask).signalNoMoreSplits();
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
