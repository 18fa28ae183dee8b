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
    void countsWhatIsQueuedForTheConsumerEvenWhenItsCopyOfTheProducersIndexIsOld() {
        SpscRing ring = new SpscRing(8);
        assertThat(ring.hasAtMostForConsumer(0)).isTrue();
        for (int i = 0; i < 6; i++) {
            ring.offer(i);
        }
        assertThat(ring.poll()).isEqualTo(0); // the consumer's copy of the producer's index is now 6
        assertThat(ring.hasAtMostForConsumer(4)).as("five queued").isFalse();
        assertThat(ring.hasAtMostForConsumer(5)).isTrue();
        ring.poll();
        ring.offer(6);
        ring.offer(7); // the producer moved on: the consumer's copy says 4 queued, there are 6
        assertThat(ring.hasAtMostForConsumer(4)).as("the real count, not the cached one").isFalse();
        assertThat(ring.hasAtMostForConsumer(6)).isTrue();
        while (ring.poll() != null) {
            // drain
        }
        assertThat(ring.hasAtMostForConsumer(0)).isTrue();
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
