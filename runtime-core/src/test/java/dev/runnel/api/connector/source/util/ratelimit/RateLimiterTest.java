package dev.runnel.api.connector.source.util.ratelimit;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.util.InstantiationUtil;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class RateLimiterTest {

    /** Timer of the fake-clock tests: records delays, never fires, so "not done" is deterministic. */
    private final List<Long> scheduledDelays = new ArrayList<>();
    private final PacedRateLimiter.Timer timer = (delayNanos, action) -> scheduledDelays.add(delayNanos);

    @Test
    void grantsTheFirstPermitAtOnceAndMakesTheNextWaitWithoutBlocking() {
        AtomicLong clock = new AtomicLong(1_000_000_000L);
        PacedRateLimiter limiter = new PacedRateLimiter(10, clock::get, timer); // one permit per 100 ms

        assertThat(limiter.acquire().toCompletableFuture()).isDone();
        long before = System.nanoTime();
        CompletableFuture<Void> second = limiter.acquire().toCompletableFuture();
        assertThat(System.nanoTime() - before).as("acquire must not wait").isLessThan(TimeUnit.MILLISECONDS.toNanos(50));
        assertThat(second).isNotDone();
        assertThat(scheduledDelays).containsExactly(TimeUnit.MILLISECONDS.toNanos(100));
    }

    @Test
    void grantsAPermitPerIntervalToACallerThatKeepsPace() {
        AtomicLong clock = new AtomicLong();
        PacedRateLimiter limiter = new PacedRateLimiter(1000, clock::get, timer); // 1 ms apart
        for (int i = 0; i < 100; i++) {
            clock.set(TimeUnit.MILLISECONDS.toNanos(i));
            assertThat(limiter.acquire().toCompletableFuture()).as("permit %s", i).isDone();
        }
    }

    @Test
    void aCallerFasterThanThePaceRunsAtMostOneEarlyGrantAhead() {
        AtomicLong clock = new AtomicLong(TimeUnit.SECONDS.toNanos(3));
        PacedRateLimiter limiter = new PacedRateLimiter(1000, clock::get, timer); // 1 ms apart
        assertThat(limiter.acquire().toCompletableFuture()).isDone(); // due now
        assertThat(limiter.acquire().toCompletableFuture()).isDone(); // due in 1 ms: granted early
        assertThat(limiter.acquire().toCompletableFuture()).isNotDone(); // due in 2 ms: must wait
        assertThat(scheduledDelays).containsExactly(TimeUnit.MILLISECONDS.toNanos(2));
    }

    @Test
    void doesNotBankPermitsWhileTheCallerIsIdle() {
        AtomicLong clock = new AtomicLong();
        PacedRateLimiter limiter = new PacedRateLimiter(100, clock::get, timer); // 10 ms apart
        assertThat(limiter.acquire().toCompletableFuture()).isDone();

        clock.set(TimeUnit.SECONDS.toNanos(5)); // idle for 5 s: 500 unused permits
        assertThat(limiter.acquire().toCompletableFuture()).isDone();
        assertThat(limiter.acquire().toCompletableFuture()).as("no burst after idling").isNotDone();
    }

    @Test
    void aWaitingPermitCompletesWhenDue() throws Exception {
        PacedRateLimiter limiter = new PacedRateLimiter(20); // 50 ms apart, real clock
        limiter.acquire().toCompletableFuture().get(1, TimeUnit.SECONDS);
        long start = System.nanoTime();
        CompletableFuture<Void> next = limiter.acquire().toCompletableFuture();
        assertThat(next).isNotDone();
        next.get(5, TimeUnit.SECONDS);
        long waitedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        assertThat(waitedMillis).isBetween(40L, 2_000L);
    }

    @Test
    void perSecondHoldsTheRateOverManyPermits() throws Exception {
        RateLimiter limiter = RateLimiterStrategy.perSecond(200).createRateLimiter(1);
        long start = System.nanoTime();
        for (int i = 0; i < 40; i++) {
            limiter.acquire().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // 40 permits at 200/s: the 40th is due 39 * 5 ms = 195 ms after the first (minus 1 ms early grant).
        assertThat(elapsedMillis).isBetween(185L, 5_000L);
    }

    @Test
    void perSecondSplitsTheGlobalRateAcrossReaders() {
        PacedRateLimiter perReader = (PacedRateLimiter) RateLimiterStrategy.perSecond(400).createRateLimiter(4);
        assertThat(perReader.intervalNanos()).isEqualTo(10_000_000.0); // 100/s each
        PacedRateLimiter single = (PacedRateLimiter) RateLimiterStrategy.perSecond(400).createRateLimiter(1);
        assertThat(single.intervalNanos()).isEqualTo(2_500_000.0);
    }

    /** Flink's TopSpeedWindowing gives every reader its own rate: {@code parallelism -> new GuavaRateLimiter(10)}. */
    @Test
    void guavaRateLimiterPacesEachReaderAtItsOwnRate() throws Exception {
        RateLimiterStrategy strategy = parallelism -> new GuavaRateLimiter(100);
        RateLimiter limiter = strategy.createRateLimiter(4); // the parallelism does not split the rate
        long start = System.nanoTime();
        for (int i = 0; i < 21; i++) {
            limiter.acquire().toCompletableFuture().get(5, TimeUnit.SECONDS);
        }
        long elapsedMillis = TimeUnit.NANOSECONDS.toMillis(System.nanoTime() - start);
        // 21 permits at 100/s: the last is due 20 * 10 ms = 200 ms after the first (minus 1 ms early grant).
        assertThat(elapsedMillis).isBetween(190L, 5_000L);
        assertThatThrownBy(() -> new GuavaRateLimiter(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
    }

    @Test
    void noOpGrantsEverythingAtOnce() {
        RateLimiter limiter = RateLimiterStrategy.noOp().createRateLimiter(3);
        for (int i = 0; i < 10_000; i++) {
            assertThat(limiter.acquire().toCompletableFuture()).isDone();
        }
    }

    @Test
    void rejectsRatesThatAreNotPositiveAndFinite() {
        assertThatThrownBy(() -> RateLimiterStrategy.perSecond(0)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("positive");
        assertThatThrownBy(() -> RateLimiterStrategy.perSecond(-1)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimiterStrategy.perSecond(Double.NaN)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> RateLimiterStrategy.perSecond(Double.POSITIVE_INFINITY))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void strategiesSurviveJavaSerialization() throws Exception {
        RateLimiterStrategy perSecond = roundTrip(RateLimiterStrategy.perSecond(50));
        assertThat(((PacedRateLimiter) perSecond.createRateLimiter(2)).intervalNanos()).isEqualTo(40_000_000.0);
        assertThat(roundTrip(RateLimiterStrategy.noOp())).isSameAs(RateLimiterStrategy.noOp());
    }

    private static RateLimiterStrategy roundTrip(RateLimiterStrategy strategy) throws Exception {
        return InstantiationUtil.clone(strategy, "rate limiter strategy");
    }
}
