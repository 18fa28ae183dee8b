package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyedStateBackendParameters;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerServiceImpl;
import dev.runnel.runtime.timers.Triggerable;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * Event-time timers registered on the heap store by their parts: a timer that joins others of its timestamp
 * (a window's end, for every key of the window) costs its bucket two references and no object of its own, and
 * the timers fire as registered, each once, handed over by their parts (no timer object made to fire one).
 */
@Timeout(60)
class TimerRegistrationTest {

    private static final int KEYS = 20_000;

    private final HeapKeyedStateBackend<Integer> backend = new HeapKeyedStateBackend<>(new KeyedStateBackendParameters<>(
            "op", "timers", 0, IntSerializer.INSTANCE, 128, KeyGroupRange.of(0, 127), List.of(), new SerializerConfig(),
            null, List.of(), null));
    private final List<InternalTimer<Integer, Long>> fired = new ArrayList<>();
    private final InternalTimerServiceImpl<Integer, Long> timers =
            HeapTimerServices.eventTimers(backend, IntSerializer.INSTANCE, fired);
    private final Integer[] keys = new Integer[KEYS];

    TimerRegistrationTest() throws Exception {
        for (int i = 0; i < KEYS; i++) {
            keys[i] = 1_000_000 + i;
        }
    }

    @Test
    void aTimerJoiningItsTimestampsBucketMakesNoObject() throws Exception {
        for (long window = 0; window < 20; window++) { // the path is compiled, the buckets exist to be reused
            registerAll(window);
            timers.advanceWatermark(window * 1000 + 999);
            fired.clear();
        }
        long allocated = allocatedBy(() -> registerAll(20));

        // The window's one bucket for all key groups reuses the last window's (0 bytes a timer here); with a bucket
        // per key group that grew anew it was about 25, with a timer object made per registration 65.
        assertThat(allocated / KEYS).as("bytes allocated per registered timer").isLessThan(8);
        timers.advanceWatermark(20 * 1000 + 999);
        assertThat(fired).hasSize(KEYS).allSatisfy(t -> assertThat(t.getTimestamp()).isEqualTo(20 * 1000 + 999));
        assertThat(fired.stream().map(InternalTimer::getKey).distinct().count()).isEqualTo(KEYS);
    }

    @Test
    void aTimerFiredByItsPartsMakesNoObjectAndCarriesItsKeyAndNamespace() throws Exception {
        PartsCounter counter = new PartsCounter();
        InternalTimerServiceImpl<Integer, Long> byParts = HeapTimerServices.timers(backend, IntSerializer.INSTANCE, counter);
        for (long window = 0; window < 20; window++) { // compiled, buckets reused
            registerAll(byParts, window);
            byParts.advanceWatermark(window * 1000 + 999);
        }
        registerAll(byParts, 20);
        counter.reset();
        long allocated = allocatedBy(() -> {
            try {
                byParts.advanceWatermark(20 * 1000 + 999);
            } catch (Exception e) {
                throw new AssertionError(e);
            }
        });

        assertThat(counter.count).as("each timer fired once").isEqualTo(KEYS);
        assertThat(counter.keySum).as("every key fired").isEqualTo(expectedKeySum());
        assertThat(counter.mismatches).as("fired with its own key current, namespace and time").isZero();
        // Assembling a timer per fired timer was 32 bytes each; what may remain is incidental (buckets kept as spares).
        assertThat(allocated / KEYS).as("bytes allocated per fired timer").isLessThan(8);
        assertThat(byParts.numEventTimeTimers()).isZero();
    }

    @Test
    void aTimerNeedsACurrentKeyAndANamespace() {
        assertThatThrownBy(() -> timers.registerEventTimeTimer(1L, 5)).hasMessageContaining("no current key is set");
        backend.setCurrentKey(7);
        assertThatThrownBy(() -> timers.registerEventTimeTimer(null, 5)).hasMessageContaining("timer namespace");
    }

    private void registerAll(long window) {
        registerAll(timers, window);
    }

    private void registerAll(InternalTimerServiceImpl<Integer, Long> service, long window) {
        Long namespace = window;
        long time = window * 1000 + 999;
        for (Integer key : keys) {
            backend.setCurrentKey(key);
            service.registerEventTimeTimer(namespace, time);
            service.registerEventTimeTimer(namespace, time); // a trigger's cleanup timer: the same
        }
    }

    private long expectedKeySum() {
        long sum = 0;
        for (Integer key : keys) {
            sum += key;
        }
        return sum;
    }

    /** Takes fired timers by their parts and checks them without allocating. */
    private final class PartsCounter implements Triggerable<Integer, Long> {
        int count;
        long keySum;
        int mismatches;

        void reset() {
            count = 0;
            keySum = 0;
            mismatches = 0;
        }

        @Override
        public void onEventTime(Integer key, Long namespace, long timestamp) {
            count++;
            keySum += key;
            if (!key.equals(backend.getCurrentKey()) || timestamp != namespace * 1000 + 999) {
                mismatches++;
            }
        }

        @Override
        public void onEventTime(InternalTimer<Integer, Long> timer) {
            throw new AssertionError("fired as an object: " + timer);
        }

        @Override
        public void onProcessingTime(InternalTimer<Integer, Long> timer) {}
    }

    private static long allocatedBy(Runnable work) {
        com.sun.management.ThreadMXBean threads = (com.sun.management.ThreadMXBean) ManagementFactory.getThreadMXBean();
        long before = threads.getThreadAllocatedBytes(Thread.currentThread().getId());
        work.run();
        return threads.getThreadAllocatedBytes(Thread.currentThread().getId()) - before;
    }
}
