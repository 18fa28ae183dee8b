package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.async.ResultFuture;
import dev.runnel.streaming.api.functions.async.RichAsyncFunction;
import dev.runnel.util.CloseableIterator;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class AsyncDataStreamEndToEndTest {

    static final AtomicInteger IN_FLIGHT = new AtomicInteger();
    static final AtomicInteger MAX_IN_FLIGHT = new AtomicInteger();

    /** Answers {@code "v:" + input} from a small pool after a random sleep of up to 5 ms; counts what is in flight. */
    static final class SlowLookup extends RichAsyncFunction<Long, String> {
        private transient ExecutorService pool;

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            pool = Executors.newFixedThreadPool(4);
        }

        @Override
        public void asyncInvoke(Long input, ResultFuture<String> resultFuture) {
            MAX_IN_FLIGHT.accumulateAndGet(IN_FLIGHT.incrementAndGet(), Math::max);
            pool.execute(() -> {
                try {
                    Thread.sleep(ThreadLocalRandom.current().nextInt(5));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
                IN_FLIGHT.decrementAndGet();
                resultFuture.complete(List.of("v:" + input));
            });
        }

        @Override
        public void close() {
            pool.shutdownNow();
        }
    }

    private static List<String> collect(DataStream<String> stream) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<String> it = stream.executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        return out;
    }

    private static List<String> expected(int n) {
        return LongStream.rangeClosed(1, n).mapToObj(i -> "v:" + i).toList();
    }

    @Test
    void orderedWaitKeepsTheInputOrderAndDrainsAtTheEndOfInput() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        DataStream<String> out = AsyncDataStream.orderedWait(env.fromSequence(1, 500), new SlowLookup(), 10,
                TimeUnit.SECONDS, 8);
        assertThat(collect(out)).containsExactlyElementsOf(expected(500));
    }

    @Test
    void unorderedWaitEmitsEveryResultOnceAndNeverHoldsMoreThanItsCapacity() throws Exception {
        IN_FLIGHT.set(0);
        MAX_IN_FLIGHT.set(0);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        DataStream<String> out = AsyncDataStream.unorderedWait(env.fromSequence(1, 500), new SlowLookup(), 10,
                TimeUnit.SECONDS, 5);
        assertThat(collect(out)).containsExactlyInAnyOrderElementsOf(expected(500));
        assertThat(MAX_IN_FLIGHT.get()).isBetween(1, 5);
    }

    /** Never answers, so the default timeout applies. */
    static final class Silent extends RichAsyncFunction<Long, String> {
        @Override
        public void asyncInvoke(Long input, ResultFuture<String> resultFuture) {}
    }

    @Test
    void theDefaultTimeoutFailsTheJobNamingTheOperatorAndTheRecord() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        AsyncDataStream.orderedWait(env.fromData(7L), new Silent(), 50, TimeUnit.MILLISECONDS).name("lookup")
                .print();
        assertThatThrownBy(() -> env.execute("async-timeout"))
                .hasMessageContaining("Async operator 'lookup'")
                .hasMessageContaining("could not complete record '7'")
                .hasMessageContaining("java.util.concurrent.TimeoutException: Async function call has timed out.");
    }
}
