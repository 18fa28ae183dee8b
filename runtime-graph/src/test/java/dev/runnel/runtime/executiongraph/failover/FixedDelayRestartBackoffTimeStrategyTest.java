package dev.runnel.runtime.executiongraph.failover;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

class FixedDelayRestartBackoffTimeStrategyTest {

    private final Exception failure = new Exception("boom");

    @Test
    void restartsUpToTheAttemptsThenGivesUp() {
        RestartBackoffTimeStrategy strategy = new FixedDelayRestartBackoffTimeStrategy(2, 1_000);
        for (int i = 1; i <= 2; i++) {
            strategy.notifyFailure(failure);
            assertThat(strategy.canRestart()).as("failure %s", i).isTrue();
            assertThat(strategy.getBackoffTime()).isEqualTo(1_000);
        }
        strategy.notifyFailure(failure);
        assertThat(strategy.canRestart()).isFalse();
        strategy.notifyFailure(failure);
        assertThat(strategy.canRestart()).isFalse();
    }

    @Test
    void zeroAttemptsNeverRestartsAndMaxAttemptsDoesNotWrap() {
        RestartBackoffTimeStrategy none = new FixedDelayRestartBackoffTimeStrategy(0, 0);
        none.notifyFailure(failure);
        assertThat(none.canRestart()).isFalse();

        RestartBackoffTimeStrategy many = new FixedDelayRestartBackoffTimeStrategy(Integer.MAX_VALUE, 0);
        many.notifyFailure(failure);
        assertThat(many.canRestart()).isTrue();
    }

    @Test
    void negativeSettingsAreRejected() {
        assertThatThrownBy(() -> new FixedDelayRestartBackoffTimeStrategy(-1, 0))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-1");
        assertThatThrownBy(() -> new FixedDelayRestartBackoffTimeStrategy(1, -5))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("-5 ms");
    }

    @Test
    void noRestartNeverRestarts() {
        RestartBackoffTimeStrategy strategy = NoRestartBackoffTimeStrategy.INSTANCE;
        assertThat(strategy.canRestart()).isFalse();
        strategy.notifyFailure(failure);
        assertThat(strategy.canRestart()).isFalse();
        assertThat(strategy.getBackoffTime()).isZero();
        assertThat(strategy.getDescription()).contains("none");
    }
}
