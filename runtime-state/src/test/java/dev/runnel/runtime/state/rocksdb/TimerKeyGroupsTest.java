package dev.runnel.runtime.state.rocksdb;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.contrib.streaming.state.EmbeddedRocksDBStateBackend;
import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.NoWallClock;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerServiceImpl;
import dev.runnel.runtime.timers.KeyContext;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import dev.runnel.runtime.timers.Triggerable;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * A key is hashed to its key group once: a timer takes the current key's key group from the keyed state, and
 * a fired timer sets its key together with the key group its queue holds, in both stores. The key group so
 * handed around must be the one the key hashes to, and timers deleted by the current key must not fire.
 */
@Timeout(60)
class TimerKeyGroupsTest {

    private static final int KEY_GROUPS = 128;

    @TempDir
    Path tmp;

    @ParameterizedTest
    @ValueSource(strings = {"heap", "rocksdb"})
    void firedTimersCarryTheirKeyGroupAndDeletedOnesStay(String store) throws Exception {
        try (KeyedStateBackend<String> backend = backend(store)) {
            CountingKeys keys = new CountingKeys(backend);
            List<String> problems = new ArrayList<>();
            List<InternalTimer<String, Long>> fired = new ArrayList<>();
            Triggerable<String, Long> check = new Triggerable<>() {
                @Override
                public void onEventTime(InternalTimer<String, Long> timer) {
                    fired.add(timer);
                    int expected = KeyGroupRangeAssignment.assignToKeyGroup(timer.getKey(), KEY_GROUPS);
                    if (!timer.getKey().equals(backend.getCurrentKey())
                            || backend.getCurrentKeyGroupIndex() != expected) {
                        problems.add(timer + " fired with key " + backend.getCurrentKey() + " in key group "
                                + backend.getCurrentKeyGroupIndex() + ", expected " + expected);
                    }
                }

                @Override
                public void onProcessingTime(InternalTimer<String, Long> timer) {}
            };
            var serializer = new TimerSerializer<>(StringSerializer.INSTANCE, LongSerializer.INSTANCE);
            var byTime = TimerHeapInternalTimer.<String, Long>byTimestamp();
            InternalTimerServiceImpl<String, Long> timers = new InternalTimerServiceImpl<>(keys, new NoWallClock(),
                    backend.create("event", serializer, byTime, TimerHeapInternalTimer::getKey),
                    backend.create("processing", serializer, byTime, TimerHeapInternalTimer::getKey), check);

            Set<String> expected = new HashSet<>();
            for (long window = 0; window < 10; window++) {
                for (int k = 0; k < 300; k++) {
                    String key = "key-" + k;
                    backend.setCurrentKey(key);
                    timers.registerEventTimeTimer(window, window * 1000 + 999);
                    if (k % 7 == 0) {
                        timers.deleteEventTimeTimer(window, window * 1000 + 999);
                    } else {
                        expected.add(key + "@" + window);
                    }
                }
            }
            timers.advanceWatermark(Long.MAX_VALUE);

            assertThat(problems).isEmpty();
            Set<String> firedIds = new HashSet<>();
            long last = Long.MIN_VALUE;
            for (InternalTimer<String, Long> timer : fired) {
                assertThat(timer.getTimestamp()).isGreaterThanOrEqualTo(last);
                last = timer.getTimestamp();
                firedIds.add(timer.getKey() + "@" + timer.getNamespace());
            }
            assertThat(fired).hasSize(expected.size());
            assertThat(firedIds).isEqualTo(expected);
            assertThat(keys.setWithoutKeyGroup).as("fired timers whose key had to be hashed again").isZero();
            assertThat(keys.setWithKeyGroup).isEqualTo(fired.size());
        }
    }

    private KeyedStateBackend<String> backend(String store) throws Exception {
        var parameters = RocksDBTestBackends.parameters(tmp, StringSerializer.INSTANCE, KEY_GROUPS,
                KeyGroupRange.of(0, KEY_GROUPS - 1), List.of(), new Configuration());
        return store.equals("heap") ? new HashMapStateBackend().createKeyedStateBackend(parameters)
                : new EmbeddedRocksDBStateBackend().createKeyedStateBackend(parameters);
    }

    /** The operator's key context over a backend, counting how keys were set. */
    private static final class CountingKeys implements KeyContext {
        private final KeyedStateBackend<String> backend;
        int setWithoutKeyGroup;
        int setWithKeyGroup;

        CountingKeys(KeyedStateBackend<String> backend) {
            this.backend = backend;
        }

        @Override
        public void setCurrentKey(Object key) {
            setWithoutKeyGroup++;
            backend.setCurrentKey((String) key);
        }

        @Override
        public void setCurrentKey(Object key, int keyGroup) {
            if (keyGroup < 0) {
                setCurrentKey(key);
                return;
            }
            setWithKeyGroup++;
            backend.setCurrentKeyAndKeyGroup((String) key, keyGroup);
        }

        @Override
        public Object getCurrentKey() {
            return backend.getCurrentKey();
        }

        @Override
        public int currentKeyGroup() {
            return backend.getCurrentKeyGroupIndex();
        }
    }
}
