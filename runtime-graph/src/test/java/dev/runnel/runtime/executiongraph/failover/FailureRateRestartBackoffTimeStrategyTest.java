package dev.runnel.runtime.executiongraph.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FailureRateRestartBackoffTimeStrategyTest {

    private final Exception failure = new Exception("boom");
    private final ManualMillisClock clock = new ManualMillisClock(0);

    @Test
    void moreFailuresThanAllowedWithinTheWindowFailTheJob() {
        RestartBackoffTimeStrategy s = new FailureRateRestartBackoffTimeStrategy(clock, 2, 10_000, 500);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        assertThat(s.getBackoffTime()).isEqualTo(500);
        clock.advance(4_000);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        clock.advance(5_000);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).as("third failure within 10 s").isFalse();
    }

    @Test
    void theWindowSlides() {
        RestartBackoffTimeStrategy s = new FailureRateRestartBackoffTimeStrategy(clock, 2, 10_000, 0);
        s.notifyFailure(failure);
        clock.advance(4_000);
        s.notifyFailure(failure);
        clock.advance(7_000); // 11 s: the first failure has left the window
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        clock.advance(1_000); // 12 s: 4 s, 11 s and 12 s are within 10 s
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isFalse();
    }

    @Test
    void aFailureExactlyOneIntervalOldStillCounts() {
        RestartBackoffTimeStrategy s = new FailureRateRestartBackoffTimeStrategy(clock, 1, 10_000, 0);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isTrue();
        clock.advance(10_000);
        s.notifyFailure(failure);
        assertThat(s.canRestart()).isFalse();

        RestartBackoffTimeStrategy later = new FailureRateRestartBackoffTimeStrategy(clock, 1, 10_000, 0);
        later.notifyFailure(failure);
        clock.advance(10_001);
        later.notifyFailure(failure);
        assertThat(later.canRestart()).isTrue();
    }

    @Test
    void manyFailuresSpreadOutAlwaysRestart() {
        RestartBackoffTimeStrategy s = new FailureRateRestartBackoffTimeStrategy(clock, 1, 1_000, 0);
        for (int i = 0; i < 1_000; i++) {
            s.notifyFailure(failure);
            assertThat(s.canRestart()).isTrue();
            clock.advance(1_001);
        }
    }

    @Test
    void invalidSettingsAreRejected() {
        assertThatThrownBy(() -> new FailureRateRestartBackoffTimeStrategy(clock, 0, 1, 0)).hasMessageContaining("at least 1");
        assertThatThrownBy(() -> new FailureRateRestartBackoffTimeStrategy(clock, 1, 0, 0)).hasMessageContaining("interval");
        assertThatThrownBy(() -> new FailureRateRestartBackoffTimeStrategy(clock, 1, 1, -1)).hasMessageContaining("-1 ms");
    }
}
