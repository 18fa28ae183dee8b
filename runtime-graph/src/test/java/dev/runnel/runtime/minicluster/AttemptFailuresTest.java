package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.shuffle.BrokenChannelException;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.tasks.TaskCancelledException;
import java.io.IOException;
import org.junit.jupiter.api.Test;

class AttemptFailuresTest {

    private final AttemptFailures failures = new AttemptFailures();

    @Test
    void onlyTheFirstFailureStopsTheAttempt() {
        assertThat(failures.cause()).isNull();
        assertThat(failures.snapshot()).isNull();
        IllegalStateException first = new IllegalStateException("deployment failed");
        assertThat(failures.add(first, 10)).isTrue();
        assertThat(failures.add(new IllegalStateException("another"), 20)).isFalse();
        assertThat(failures.cause()).isSameAs(first);
        assertThat(failures.snapshot().timestamp()).isEqualTo(10);
        assertThat(failures.snapshot().concurrent()).extracting(Throwable::getMessage).containsExactly("another");
    }

    @Test
    void aLostTaskManagerExplainsTheBrokenChannelReportedBeforeIt() {
        RuntimeException channel = new RuntimeException("task failed",
                new BrokenChannelException("the connection to TaskManager tm-1 failed while channel e0[0->3] was open"));
        IllegalStateException lost = new IllegalStateException("Task Sum (1/4) failed: tm-1 is lost: its connection closed");
        failures.add(channel, 10);
        failures.add(lost, 11);

        assertThat(failures.cause()).isSameAs(lost);
        assertThat(lost.getSuppressed()).containsExactly(channel);
        EmbeddedJob.Failure snapshot = failures.snapshot();
        assertThat(snapshot.cause()).isSameAs(lost);
        assertThat(snapshot.timestamp()).as("when the attempt first failed").isEqualTo(10);
        assertThat(snapshot.concurrent()).containsExactly(channel);
    }

    @Test
    void anOperatorErrorBeatsEverythingElseAndKeepsItsPlace() {
        IllegalStateException lost = new IllegalStateException("tm-1 is lost");
        OperatorException operator = new OperatorException("Sum failed", new ArithmeticException("/ by zero"));
        BrokenChannelException channel = new BrokenChannelException("channel e0[1->0] failed");
        failures.add(lost, 1);
        failures.add(operator, 2);
        failures.add(channel, 3);
        IOException deploy = new IOException("deploy failed");
        failures.add(deploy, 4);

        assertThat(failures.cause()).isSameAs(operator);
        assertThat(failures.snapshot().concurrent()).containsExactly(lost, channel, deploy);
    }

    @Test
    void aCancellationThatCameFirstStaysTheCauseAndCollectsNothing() {
        TaskCancelledException cancelled = new TaskCancelledException("cancelled by the user");
        failures.add(cancelled, 1);
        failures.add(new OperatorException("Sum failed while cancelling", new IllegalStateException()), 2);
        assertThat(failures.cause()).isSameAs(cancelled);
        assertThat(failures.snapshot().concurrent()).isEmpty();
    }

    @Test
    void keepsABoundedNumberOfConcurrentFailures() {
        failures.add(new BrokenChannelException("first"), 0);
        for (int i = 0; i < 3 * AttemptFailures.MAX_CONCURRENT; i++) {
            failures.add(new BrokenChannelException("channel " + i), i);
        }
        IllegalStateException lost = new IllegalStateException("tm-2 is lost");
        failures.add(lost, 99);
        assertThat(failures.cause()).as("a cause that comes after the list is full still wins").isSameAs(lost);
        assertThat(failures.snapshot().concurrent()).hasSize(AttemptFailures.MAX_CONCURRENT)
                .first().extracting(Throwable::getMessage).isEqualTo("first");
    }
}
