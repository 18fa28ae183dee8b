package dev.runnel.runtime.network.local;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

class SpscRingTest {

    @Test
    void holdsExactlyItsCapacityInOrder() {
        SpscRing ring = new SpscRing(3);
        assertThat(ring.poll()).isNull();
        assertThat(ring.offer("a")).isTrue();
        assertThat(ring.offer("b")).isTrue();
        assertThat(ring.offer("c")).isTrue();
        assertThat(ring.offer("d")).as("capacity 3 is a hard bound, not the power of two behind it").isFalse();
        assertThat(ring.poll()).isEqualTo("a");
        assertThat(ring.offer("d")).isTrue();
        assertThat(ring.poll()).isEqualTo("b");
        assertThat(ring.poll()).isEqualTo("c");
        assertThat(ring.poll()).isEqualTo("d");
        assertThat(ring.poll()).isNull();
        assertThat(ring.isEmptyForConsumer()).isTrue();
    }

    @Test
    @Timeout(value = 60, unit = TimeUnit.SECONDS)
    void transfersEveryElementInOrderBetweenTwoThreads() throws Exception {
        SpscRing ring = new SpscRing(64);
        int count = 2_000_000;
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            for (int i = 0; i < count; i++) {
                Integer value = i;
                while (!ring.offer(value)) {
                    Thread.onSpinWait();
                }
            }
        });
        producer.setUncaughtExceptionHandler((t, e) -> failure.set(e));
        producer.start();
        long sum = 0;
        for (int expected = 0; expected < count; ) {
            Object element = ring.poll();
            if (element == null) {
                Thread.onSpinWait();
                continue;
            }
            assertThat((Integer) element).isEqualTo(expected);
            sum += expected;
            expected++;
        }
        producer.join();
        assertThat(failure.get()).isNull();
        assertThat(sum).isEqualTo((long) count * (count - 1) / 2);
        assertThat(ring.poll()).isNull();
    }
}
