package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.async.AsyncFunction;
import dev.runnel.streaming.api.functions.async.ResultFuture;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.util.retryable.AsyncRetryStrategies;
import dev.runnel.streaming.util.retryable.RetryPredicates;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Async I/O with Flink's retry strategies: errors and empty results asked for again, up to the attempts allowed. */
@Timeout(60)
class AsyncRetryTest {

    static final Map<Integer, AtomicInteger> ATTEMPTS = new ConcurrentHashMap<>();
    static final List<Integer> OUT = new CopyOnWriteArrayList<>();

    @BeforeEach
    void reset() {
        ATTEMPTS.clear();
        OUT.clear();
    }

    /** Fails the first two attempts of every record, then answers with the record times ten. */
    static final class FlakyLookup implements AsyncFunction<Integer, Integer> {
        private final boolean emptyInsteadOfError;

        FlakyLookup(boolean emptyInsteadOfError) {
            this.emptyInsteadOfError = emptyInsteadOfError;
        }

        @Override
        public void asyncInvoke(Integer input, ResultFuture<Integer> future) {
            int attempt = ATTEMPTS.computeIfAbsent(input, k -> new AtomicInteger()).incrementAndGet();
            new Thread(() -> {
                if (attempt <= 2) {
                    if (emptyInsteadOfError) {
                        future.complete(List.of());
                    } else {
                        future.completeExceptionally(new IllegalStateException("lookup of " + input + " failed"));
                    }
                } else {
                    future.complete(List.of(input * 10));
                }
            }).start();
        }
    }

    @Test
    void errorsAreRetriedWithAFixedDelayUntilTheAnswerComes() throws Exception {
        run(new FlakyLookup(false), new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<Integer>(3, 5)
                .ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build());
        assertThat(OUT).containsExactly(10, 20, 30);
        assertThat(ATTEMPTS.values()).allSatisfy(a -> assertThat(a.get()).isEqualTo(3));
    }

    @Test
    @SuppressWarnings({"unchecked", "rawtypes"})
    void emptyResultsAreRetriedWithAGrowingDelay() throws Exception {
        run(new FlakyLookup(true), new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<Integer>(
                5, 2, 50, 2.0).ifResult((java.util.function.Predicate) RetryPredicates.EMPTY_RESULT_PREDICATE).build());
        assertThat(OUT).containsExactly(10, 20, 30);
    }

    @Test
    void aRecordOutOfAttemptsFailsTheJobWithTheLastError() {
        assertThatThrownBy(() -> run(new FlakyLookup(false),
                new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<Integer>(2, 5)
                        .ifException(RetryPredicates.HAS_EXCEPTION_PREDICATE).build()))
                .hasStackTraceContaining("could not complete record").hasStackTraceContaining("failed");
        // whichever record ran out first failed the job after its second attempt; none had a third
        assertThat(ATTEMPTS.values()).anySatisfy(a -> assertThat(a.get()).isEqualTo(2))
                .allSatisfy(a -> assertThat(a.get()).isLessThanOrEqualTo(2));
    }

    @Test
    void theDelaysOfTheStrategies() {
        var fixed = new AsyncRetryStrategies.FixedDelayRetryStrategyBuilder<Integer>(3, 7).build();
        assertThat(fixed.canRetry(2)).isTrue();
        assertThat(fixed.canRetry(3)).isFalse();
        assertThat(fixed.getBackoffTimeMillis(1)).isEqualTo(7);
        var growing = new AsyncRetryStrategies.ExponentialBackoffDelayRetryStrategyBuilder<Integer>(10, 10, 35, 2.0)
                .build();
        assertThat(List.of(growing.getBackoffTimeMillis(1), growing.getBackoffTimeMillis(2),
                growing.getBackoffTimeMillis(3))).containsExactly(10L, 20L, 35L);
        assertThat(AsyncRetryStrategies.NO_RETRY_STRATEGY.canRetry(1)).isFalse();
    }

    private static void run(AsyncFunction<Integer, Integer> function,
            dev.runnel.streaming.api.functions.async.AsyncRetryStrategy<Integer> strategy) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(1);
        AsyncDataStream.orderedWaitWithRetry(env.fromData(1, 2, 3), function, 10, TimeUnit.SECONDS, strategy)
                .addSink(new SinkFunction<Integer>() {
                    @Override
                    public void invoke(Integer value, Context context) {
                        OUT.add(value);
                    }
                });
        env.execute("async retry");
    }
}
