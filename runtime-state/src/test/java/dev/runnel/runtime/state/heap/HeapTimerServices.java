package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.runtime.state.NoWallClock;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerServiceImpl;
import dev.runnel.runtime.timers.KeyContext;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import dev.runnel.runtime.timers.Triggerable;
import java.util.List;

/**
 * A timer service over a heap backend's queues, for tests of timers without an operator: the key context is
 * the backend's (its current key, retained key and key group, as an operator hands them on), there is no wall
 * clock, and fired event-time timers are collected in a list.
 */
final class HeapTimerServices {

    private HeapTimerServices() {}

    /** Event-time timers with namespaces of type Long, fired into {@code fired}. */
    static <K> InternalTimerServiceImpl<K, Long> eventTimers(HeapKeyedStateBackend<K> backend,
            TypeSerializer<K> keySerializer, List<InternalTimer<K, Long>> fired) {
        return timers(backend, keySerializer, new Triggerable<>() {
            @Override
            public void onEventTime(InternalTimer<K, Long> timer) {
                fired.add(timer);
            }

            @Override
            public void onProcessingTime(InternalTimer<K, Long> timer) {}
        });
    }

    /** Timers with namespaces of type Long, fired at {@code triggerable}. */
    @SuppressWarnings("unchecked")
    static <K> InternalTimerServiceImpl<K, Long> timers(HeapKeyedStateBackend<K> backend,
            TypeSerializer<K> keySerializer, Triggerable<K, Long> triggerable) {
        KeyContext keys = new KeyContext() {
            @Override
            public void setCurrentKey(Object key) {
                backend.setCurrentKey((K) key);
            }

            @Override
            public Object getCurrentKey() {
                return backend.getCurrentKey();
            }

            @Override
            public Object retainedCurrentKey() {
                return backend.retainedCurrentKey();
            }

            @Override
            public int currentKeyGroup() {
                return backend.getCurrentKeyGroupIndex();
            }
        };
        var byTime = TimerHeapInternalTimer.<K, Long>byTimestamp();
        var serializer = new TimerSerializer<>(keySerializer, LongSerializer.INSTANCE);
        return new InternalTimerServiceImpl<>(keys, new NoWallClock(),
                backend.create("event", serializer, byTime, TimerHeapInternalTimer::getKey),
                backend.create("processing", serializer, byTime, TimerHeapInternalTimer::getKey), triggerable);
    }
}
