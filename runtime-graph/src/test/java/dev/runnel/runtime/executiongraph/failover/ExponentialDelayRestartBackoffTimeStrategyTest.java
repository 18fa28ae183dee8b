package dev.runnel.runtime.executiongraph.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.HashSet;
import java.util.Random;
import java.util.Set;
import org.junit.jupiter.api.Test;

class ExponentialDelayRestartBackoffTimeStrategyTest {

    private final Exception failure = new Exception("boom");
    private final ManualMillisClock clock = new ManualMillisClock(1_000_000);

    private ExponentialDelayRestartBackoffTimeStrategy strategy(long initial, long max, double multiplier, long reset,
            double jitter, int attempts) {
        return new ExponentialDelayRestartBackoffTimeStrategy(clock, new Random(42), initial, max, multiplier, reset,
                jitter, attempts);
    }

    @Test
    void theBackoffGrowsByTheMultiplierUpToTheCap() {
        ExponentialDelayRestartBackoffTimeStrategy s = strategy(1_000, 10_000, 2.0, 3_600_000, 0.0, Integer.MAX_VALUE);
        long[] expected = {1_000, 2_000, 4_000, 8_000, 10_000, 10_000};
        for (long delay : expected) {
            s.notifyFailure(failure);
            assertThat(s.canRestart()).isTrue();
            assertThat(s.getBackoffTime()).isEqualTo(delay);
            clock.advance(s.getBackoffTime() + 1);
        }
    }

    @Test
    void aFractionalMultiplierStillGrowsAndTheFirstFailureAtTimeZeroIsInitial() {
        ManualMillisClock zero = new ManualMillisClock(0);
        ExponentialDelayRestartBackoffTimeStrategy s = new ExponentialDelayRestartBackoffTimeStrategy(zero,
                new Random(1), 1_000, 60_000, 1.5, 3_600_000, 0.0, Integer.MAX_VALUE);
        s.notifyFailure(failure);
        assertThat(s.getBackoffTime()).isEqualTo(1_000);
        s.notifyFailure(failure);
        assertThat(s.getBackoffTime()).isEqualTo(1_500);
        s.notifyFailure(failure);
        assertThat(s.getBackoffTime()).isEqualTo(2_250);
    }

    @Test
    void aQuietPeriodResetsTheBackoffAndTheAttempts() {
        ExponentialDelayRestartBackoffTimeStrategy s = strategy(100, 10_000, 2.0, 5_000, 0.0, 3);
        for (int i = 0; i < 3; i++) {
            s.notifyFailure(failure);
            clock.advance(10);
        }
        assertThat(s.getCurrentBackoffMs()).isEqualTo(400);
        assertThat(s.canRestart()).isTrue();
        // Quiet for the threshold plus the current backoff, less one millisecond: not quiet enough.
        clock.advance(5_000 + 400 - 1 - 10);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).as("fourth attempt without reset").isFalse();
        assertThat(s.getCurrentBackoffMs()).isEqualTo(800);

        clock.advance(5_000 + 800);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        assertThat(s.getBackoffTime()).isEqualTo(100);
    }

    @Test
    void attemptsBeforeResetBoundTheRestarts() {
        ExponentialDelayRestartBackoffTimeStrategy s = strategy(1, 1, 1.0, 1_000_000, 0.0, 2);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isFalse();
    }

    @Test
    void jitterStaysWithinTheFactorAndUnderTheCap() {
        ExponentialDelayRestartBackoffTimeStrategy s = strategy(1_000, 60_000, 2.0, 3_600_000, 0.25, Integer.MAX_VALUE);
        s.notifyFailure(failure);
        Set<Long> seen = new HashSet<>();
        for (int i = 0; i < 2_000; i++) {
            long backoff = s.getBackoffTime();
            assertThat(backoff).isBetween(750L, 1_250L);
            seen.add(backoff);
        }
        assertThat(seen.size()).as("jitter varies the delay").isGreaterThan(100);
        assertThat(seen).contains(750L, 1_250L);

        ExponentialDelayRestartBackoffTimeStrategy capped = strategy(1_000, 1_000, 2.0, 3_600_000, 1.0, 5);
        capped.notifyFailure(failure);
        for (int i = 0; i < 1_000; i++) {
            assertThat(capped.getBackoffTime()).isBetween(0L, 1_000L);
        }
    }

    @Test
    void invalidSettingsAreRejectedWithTheValue() {
        assertThatThrownBy(() -> strategy(0, 10, 2, 10, 0, 1)).hasMessageContaining("initial backoff");
        assertThatThrownBy(() -> strategy(100, 10, 2, 10, 0, 1)).hasMessageContaining("maximum backoff (10 ms)");
        assertThatThrownBy(() -> strategy(1, 10, 0.5, 10, 0, 1)).hasMessageContaining("multiplier").hasMessageContaining("0.5");
        assertThatThrownBy(() -> strategy(1, 10, 2, 0, 0, 1)).hasMessageContaining("reset-backoff threshold");
        assertThatThrownBy(() -> strategy(1, 10, 2, 10, 1.5, 1)).hasMessageContaining("jitter").hasMessageContaining("1.5");
        assertThatThrownBy(() -> strategy(1, 10, 2, 10, 0, -1)).hasMessageContaining("attempts");
    }
}
