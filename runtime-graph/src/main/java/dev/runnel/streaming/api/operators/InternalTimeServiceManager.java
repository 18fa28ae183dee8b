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
import java.util.List;
import java.util.Map;

/**
 * The timer services of one keyed operator, by name. Their queues live in the operator's keyed state
 * backend (so they are snapshotted with it); watermarks reach all of them. Task thread only.
 *
 * <p>In BATCH execution, as in Flink's batch mode, processing time does not drive timers: processing-time
 * timers are queued but fire only at the end of input, together with all event-time timers, when the
 * final watermark ({@code Long.MAX_VALUE}) arrives. Event-time timers fire first, then processing-time
 * ones, until timers registered while firing are exhausted too.
 */
public final class InternalTimeServiceManager<K> {

    private final KeyedStateBackend<K> backend;
    private final KeyContext keyContext;
    private final ProcessingTimeService processingTimeService;
    private final Map<String, InternalTimerServiceImpl<K, ?>> services = new LinkedHashMap<>();
    private final boolean batch;

    /** The timer services of a STREAMING operator. */
    public InternalTimeServiceManager(
            KeyedStateBackend<K> backend, KeyContext keyContext, ProcessingTimeService processingTimeService) {
        this(backend, keyContext, processingTimeService, false);
    }

    /** The timer services of an operator; with {@code batch}, timers fire only at the end of input. */
    public InternalTimeServiceManager(KeyedStateBackend<K> backend, KeyContext keyContext,
            ProcessingTimeService processingTimeService, boolean batch) {
        this.backend = backend;
        this.keyContext = keyContext;
        this.processingTimeService = batch ? new EndOfInputOnly(processingTimeService) : processingTimeService;
        this.batch = batch;
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
        LongPriorityComparator<TimerHeapInternalTimer<K, N>> byTimestamp = TimerHeapInternalTimer.byTimestamp();
        InternalTimerServiceImpl<K, N> service = new InternalTimerServiceImpl<>(
                keyContext,
                processingTimeService,
                backend.create("_timer_event_" + name, timerSerializer, byTimestamp, TimerHeapInternalTimer::getKey),
                backend.create("_timer_processing_" + name, timerSerializer, byTimestamp, TimerHeapInternalTimer::getKey),
                triggerable);
        services.put(name, service);
        return service;
    }

    /**
     * Fires the event-time timers of every service up to {@code watermark}; in BATCH, at the final
     * watermark, every timer.
     */
    public void advanceWatermark(long watermark) throws Exception {
        if (batch && watermark == Long.MAX_VALUE) {
            fireAllTimers();
            return;
        }
        for (InternalTimerServiceImpl<K, ?> service : services.values()) {
            service.advanceWatermark(watermark);
        }
    }

    /** Event-time timers queued in all services (all keys). */
    public int numEventTimeTimers() {
        return services.values().stream().mapToInt(InternalTimerServiceImpl::numEventTimeTimers).sum();
    }

    /** Processing-time timers queued in all services (all keys). */
    public int numProcessingTimeTimers() {
        return services.values().stream().mapToInt(InternalTimerServiceImpl::numProcessingTimeTimers).sum();
    }

    /** BATCH end of input: fires every event-time and processing-time timer, including ones registered meanwhile. */
    public void fireAllTimers() throws Exception {
        boolean pending = true;
        while (pending) {
            for (InternalTimerServiceImpl<K, ?> service : List.copyOf(services.values())) {
                service.advanceWatermark(Long.MAX_VALUE);
                service.advanceProcessingTime(Long.MAX_VALUE);
            }
            pending = numEventTimeTimers() + numProcessingTimeTimers() > 0;
        }
    }

    /**
     * BATCH with input sorted by key: the current key's records are all in, so its timers fire now (they are the
     * only ones queued: timers are registered for the key being processed), and the next key starts without a
     * watermark, as in Flink's batch execution.
     */
    public void finishKey() throws Exception {
        fireAllTimers();
        for (InternalTimerServiceImpl<K, ?> service : services.values()) {
            service.resetWatermarkForNextKey();
        }
    }

    /**
     * BATCH's processing-time service for timers: tells the time, but its wake-ups never fire, so
     * processing-time timers wait for {@link #fireAllTimers()}.
     */
    private record EndOfInputOnly(ProcessingTimeService clock) implements ProcessingTimeService {
        @Override
        public long getCurrentProcessingTime() {
            return clock.getCurrentProcessingTime();
        }

        @Override
        public Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback) {
            return () -> {};
        }
    }

    public void close() {
        services.values().forEach(InternalTimerServiceImpl::close);
    }
}
