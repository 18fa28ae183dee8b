package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.queue.LongPriorityComparator;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.runtime.timers.InternalTimerServiceImpl;
import dev.runnel.runtime.timers.KeyContext;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.runtime.timers.TimerHeapInternalTimer;
import dev.runnel.runtime.timers.TimerSerializer;
import dev.runnel.runtime.timers.Triggerable;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The timer services of one keyed operator, by name. Their queues live in the operator's keyed state
 * backend (so they are snapshotted with it); watermarks reach all of them. Task thread only.
 */
public final class InternalTimeServiceManager<K> {

    private final KeyedStateBackend<K> backend;
    private final KeyContext keyContext;
    private final ProcessingTimeService processingTimeService;
    private final Map<String, InternalTimerServiceImpl<K, ?>> services = new LinkedHashMap<>();

    public InternalTimeServiceManager(
            KeyedStateBackend<K> backend, KeyContext keyContext, ProcessingTimeService processingTimeService) {
        this.backend = backend;
        this.keyContext = keyContext;
        this.processingTimeService = processingTimeService;
    }

    /** The timer service named {@code name}, created on first use. */
    @SuppressWarnings("unchecked")
    public <N> InternalTimerService<N> getInternalTimerService(
            String name, TypeSerializer<N> namespaceSerializer, Triggerable<K, N> triggerable) {
        InternalTimerServiceImpl<K, N> existing = (InternalTimerServiceImpl<K, N>) services.get(name);
        if (existing != null) {
            return existing;
        }
        TimerSerializer<K, N> timerSerializer = new TimerSerializer<>(backend.getKeySerializer(), namespaceSerializer);
        LongPriorityComparator<TimerHeapInternalTimer<K, N>> byTimestamp = TimerHeapInternalTimer::getTimestamp;
        InternalTimerServiceImpl<K, N> service = new InternalTimerServiceImpl<>(
                keyContext,
                processingTimeService,
                backend.create("_timer_event_" + name, timerSerializer, byTimestamp, TimerHeapInternalTimer::getKey),
                backend.create("_timer_processing_" + name, timerSerializer, byTimestamp, TimerHeapInternalTimer::getKey),
                triggerable);
        services.put(name, service);
        return service;
    }

    /** Fires the event-time timers of every service up to {@code watermark}. */
    public void advanceWatermark(long watermark) throws Exception {
        for (InternalTimerServiceImpl<K, ?> service : services.values()) {
            service.advanceWatermark(watermark);
        }
    }

    /** Event-time timers queued in all services (all keys); for tests. */
    public int numEventTimeTimers() {
        return services.values().stream().mapToInt(InternalTimerServiceImpl::numEventTimeTimers).sum();
    }

    /** Processing-time timers queued in all services (all keys); for tests. */
    public int numProcessingTimeTimers() {
        return services.values().stream().mapToInt(InternalTimerServiceImpl::numProcessingTimeTimers).sum();
    }

    public void close() {
        services.values().forEach(InternalTimerServiceImpl::close);
    }
}
