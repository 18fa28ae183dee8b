package dev.runnel.streaming.api.operators.async;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.streaming.api.datastream.AsyncDataStream.OutputMode;
import dev.runnel.streaming.api.functions.async.AsyncFunction;
import dev.runnel.streaming.api.functions.async.ResultFuture;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.streaming.util.OneInputStreamOperatorTestHarness;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.IntStream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AsyncWaitOperatorTest {

    private final ExecutorService executor = Executors.newFixedThreadPool(4);

    @AfterEach
    void stopExecutor() {
        executor.shutdownNow();
    }

    /** Completes each input with {@code input * 10} on another thread after a random sleep of up to 10 ms. */
    private AsyncFunction<Integer, Integer> randomlyDelayedTimesTen() {
        return (input, future) -> executor.execute(() -> {
            sleepQuietly(ThreadLocalRandom.current().nextInt(10));
            future.complete(List.of(input * 10));
        });
    }

    private static void sleepQuietly(long millis) {
        try {
            Thread.sleep(millis);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static OneInputStreamOperatorTestHarness<Integer, Integer> harness(AsyncFunction<Integer, Integer> f,
            long timeout, int capacity, OutputMode mode) throws Exception {
        var harness = new OneInputStreamOperatorTestHarness<>(new AsyncWaitOperator<>(f, timeout, capacity, mode,
                dev.runnel.api.common.typeinfo.Types.INT));
        harness.open();
        return harness;
    }

    @Test
    void recordsInFlightAtACheckpointAreAskedForAgainAfterARestore() throws Exception {
        List<ResultFuture<Integer>> futures = new CopyOnWriteArrayList<>();
        List<Integer> asked = new CopyOnWriteArrayList<>();
        AsyncFunction<Integer, Integer> f = (in, future) -> {
            asked.add(in);
            futures.add(future);
        };
        dev.runnel.runtime.checkpoint.OperatorSubtaskState snapshot;
        try (var harness = harness(f, 0, 10, OutputMode.ORDERED)) {
            harness.processElement(1, 100L);
            harness.processElement(2, 200L);
            harness.processElement(3, 300L);
            futures.get(0).complete(List.of(10));
            harness.processMails();
            snapshot = harness.snapshot(1, 1);
        }
        assertThat(asked).containsExactly(1, 2, 3);
        asked.clear();
        futures.clear();
        var restored = new OneInputStreamOperatorTestHarness<>(new AsyncWaitOperator<>(f, 0, 10, OutputMode.ORDERED,
                dev.runnel.api.common.typeinfo.Types.INT));
        restored.initializeState(snapshot);
        restored.open();
        assertThat(asked).as("records 2 and 3 were held at the checkpoint; 1 was emitted").containsExactly(2, 3);
        futures.forEach(future -> future.complete(List.of(-1)));
        restored.processMails();
        assertThat(restored.extractOutputStreamRecords()).extracting(r -> r.getTimestamp())
                .containsExactly(200L, 300L);
        restored.close();
    }

    @Test
    void orderedModeEmitsInInputOrderWithTheInputsTimestamps() throws Exception {
        try (var harness = harness(randomlyDelayedTimesTen(), 0, 5, OutputMode.ORDERED)) {
            for (int i = 0; i < 100; i++) {
                harness.processElement(i, 1000L + i);
            }
            harness.endInput();
            List<StreamRecord<? extends Integer>> out = harness.extractOutputStreamRecords();
            assertThat(harness.extractOutputValues())
                    .containsExactlyElementsOf(IntStream.range(0, 100).map(i -> i * 10).boxed().toList());
            assertThat(out).extracting(StreamRecord::getTimestamp)
                    .containsExactlyElementsOf(IntStream.range(0, 100).mapToObj(i -> 1000L + i).toList());
        }
    }

    @Test
    void unorderedModeNeverLetsARecordCrossAWatermark() throws Exception {
        try (var harness = harness(randomlyDelayedTimesTen(), 0, 8, OutputMode.UNORDERED)) {
            for (int i = 0; i < 60; i++) {
                harness.processElement(i, i);
                if (i % 10 == 9) {
                    harness.processWatermark(i);
                }
            }
            harness.endInput();
            // segment k holds exactly the results of inputs 10k..10k+9, then watermark 10k+9
            List<Object> out = new ArrayList<>(harness.getOutput());
            assertThat(out).hasSize(66);
            for (int k = 0; k < 6; k++) {
                Set<Object> segment = new HashSet<>();
                for (Object o : out.subList(k * 11, k * 11 + 10)) {
                    segment.add(((StreamRecord<?>) o).getValue());
                }
                assertThat(segment).isEqualTo(
                        new HashSet<>(IntStream.range(k * 10, k * 10 + 10).map(i -> i * 10).boxed().toList()));
                assertThat(out.get(k * 11 + 10)).isEqualTo(new Watermark(k * 10L + 9));
            }
        }
    }

    @Test
    void aWatermarkWaitsForTheRecordsBeforeItInBothModes() throws Exception {
        for (OutputMode mode : OutputMode.values()) {
            List<ResultFuture<Integer>> futures = new ArrayList<>();
            try (var harness = harness((in, f) -> futures.add(f), 0, 10, mode)) {
                harness.processElement(1, 1);
                harness.processWatermark(5);
                harness.processElement(2, 6);
                futures.get(1).complete(List.of(20));
                harness.processMails();
                assertThat(harness.getOutput()).as(mode.name()).isEmpty();
                futures.get(0).complete(List.of(10));
                harness.processMails();
                assertThat(harness.getOutput()).as(mode.name()).extracting(Object::toString)
                        .containsExactly("Record @ 1 : 10", "Watermark @ 5", "Record @ 6 : 20");
            }
        }
    }

    @Test
    void unorderedModeEmitsALaterRecordFirstWhenItCompletesFirst() throws Exception {
        List<ResultFuture<Integer>> futures = new ArrayList<>();
        try (var harness = harness((in, f) -> futures.add(f), 0, 10, OutputMode.UNORDERED)) {
            harness.processElement(1, 1);
            harness.processElement(2, 2);
            futures.get(1).complete(List.of(20, 21));
            harness.processMails();
            assertThat(harness.extractOutputValues()).containsExactly(20, 21);
            futures.get(0).complete(List.of());
            harness.endInput();
            assertThat(harness.extractOutputValues()).containsExactly(20, 21);
            assertThat(harness.getOperator()).extracting(op -> ((AsyncWaitOperator<?, ?>) op).getQueueSize()).isEqualTo(0);
        }
    }

    @Test
    void aFullQueueBlocksTheInputUntilAnotherThreadCompletesAFuture() throws Exception {
        List<ResultFuture<Integer>> futures = new CopyOnWriteArrayList<>();
        List<Integer> invokedWhenReleased = new CopyOnWriteArrayList<>();
        try (var harness = harness((in, f) -> futures.add(f), 0, 2, OutputMode.ORDERED)) {
            harness.processElement(1);
            harness.processElement(2);
            executor.execute(() -> {
                sleepQuietly(200);
                invokedWhenReleased.add(futures.size());
                futures.get(0).complete(List.of(10));
            });
            harness.processElement(3); // blocks until the first future completes
            assertThat(invokedWhenReleased).containsExactly(2);
            assertThat(futures).hasSize(3);
            assertThat(harness.extractOutputValues()).containsExactly(10);
            futures.get(1).complete(List.of(20));
            futures.get(2).complete(List.of(30));
            harness.endInput();
            assertThat(harness.extractOutputValues()).containsExactly(10, 20, 30);
        }
    }

    @Test
    void aTimeoutOverrideCompletesWithAFallback() throws Exception {
        AsyncFunction<Integer, Integer> neverAnswers = new AsyncFunction<>() {
            @Override
            public void asyncInvoke(Integer input, ResultFuture<Integer> resultFuture) {}

            @Override
            public void timeout(Integer input, ResultFuture<Integer> resultFuture) {
                resultFuture.complete(List.of(-input));
            }
        };
        try (var harness = harness(neverAnswers, 100, 10, OutputMode.ORDERED)) {
            harness.processElement(7, 1);
            harness.setProcessingTime(50);
            harness.processElement(8, 2);
            harness.setProcessingTime(99);
            assertThat(harness.getOutput()).isEmpty();
            harness.setProcessingTime(100);
            assertThat(harness.extractOutputValues()).containsExactly(-7);
            harness.setProcessingTime(150);
            harness.endInput();
            assertThat(harness.getOutput()).extracting(Object::toString)
                    .containsExactly("Record @ 1 : -7", "Record @ 2 : -8");
        }
    }

    @Test
    void theDefaultTimeoutFailsNamingTheOperatorAndTheRecord() throws Exception {
        try (var harness = harness((in, f) -> {}, 100, 10, OutputMode.UNORDERED)) {
            harness.processElement(7);
            assertThatThrownBy(() -> harness.setProcessingTime(100))
                    .isInstanceOf(OperatorException.class)
                    .hasMessage("Async operator 'AsyncWaitOperator' in AsyncWaitOperator (1/1) could not complete record"
                            + " '7': java.util.concurrent.TimeoutException: Async function call has timed out.")
                    .hasCauseInstanceOf(TimeoutException.class);
        }
    }

    @Test
    void aCompletionBeforeTheTimeoutCancelsIt() throws Exception {
        List<ResultFuture<Integer>> futures = new ArrayList<>();
        try (var harness = harness((in, f) -> futures.add(f), 100, 10, OutputMode.ORDERED)) {
            harness.processElement(7);
            futures.get(0).complete(List.of(70));
            harness.setProcessingTime(200);
            assertThat(harness.extractOutputValues()).containsExactly(70);
            assertThat(harness.getProcessingTimeService().pendingTimers()).isZero();
        }
    }

    @Test
    void anExceptionalCompletionFailsNamingTheOperatorAndTheRecord() throws Exception {
        try (var harness = harness((in, f) -> executor.execute(
                () -> f.completeExceptionally(new IllegalStateException("lookup of " + in + " failed"))),
                0, 10, OutputMode.ORDERED)) {
            // the failure surfaces wherever its mail runs: after the element or at the end of input
            assertThatThrownBy(() -> {
                harness.processElement(42);
                harness.endInput();
            })
                    .isInstanceOf(OperatorException.class)
                    .hasMessageContaining("Async operator 'AsyncWaitOperator'")
                    .hasMessageContaining("could not complete record '42'")
                    .hasMessageContaining("IllegalStateException: lookup of 42 failed");
        }
    }

    @Test
    void onlyTheFirstCompletionCounts() throws Exception {
        try (var harness = harness((in, f) -> {
            f.complete(List.of(1));
            f.complete(List.of(2));
            f.completeExceptionally(new RuntimeException("ignored"));
        }, 0, 10, OutputMode.ORDERED)) {
            harness.processElement(0);
            harness.endInput();
            assertThat(harness.extractOutputValues()).containsExactly(1);
        }
    }

    @Test
    void aCollectionSupplierRunsOnTheTaskThread() throws Exception {
        Thread testThread = Thread.currentThread();
        List<Boolean> onTaskThread = new CopyOnWriteArrayList<>();
        try (var harness = harness((in, f) -> executor.execute(() -> f.complete(() -> {
            onTaskThread.add(Thread.currentThread() == testThread);
            return List.of(in + 1);
        })), 0, 10, OutputMode.ORDERED)) {
            harness.processElement(1);
            harness.endInput();
            assertThat(harness.extractOutputValues()).containsExactly(2);
            assertThat(onTaskThread).containsExactly(true);
        }
    }

    @Test
    void aNullResultIsRefusedWithAClearMessage() throws Exception {
        try (var harness = harness((in, f) -> f.complete((java.util.Collection<Integer>) null), 0, 10, OutputMode.ORDERED)) {
            assertThatThrownBy(() -> harness.processElement(1))
                    .isInstanceOf(NullPointerException.class)
                    .hasMessageContaining("complete with an empty collection to emit nothing");
        }
    }
}
