package dev.runnel.runtime.timers;

import dev.runnel.runtime.state.queue.KeyGroupedInternalPriorityQueue;
import dev.runnel.runtime.state.queue.PartedLongPriority;
import dev.runnel.runtime.state.queue.PolledParts;
import java.util.Objects;

/**
 * The timer service of one keyed operator over two priority queues (event time and processing time)
 * that live in the state backend, so timers are snapshotted and rescaled with keyed state.
 *
 * <p>Event-time timers fire in {@link #advanceWatermark(long)}, in timestamp order, each with its key
 * set as current key. Processing-time timers are driven by one physical wake-up on the
 * {@link ProcessingTimeService} for the earliest timer, re-registered only when the queue's head
 * changes. A timer takes the key group of the current key from the {@link KeyContext}, and a fired timer
 * hands its queue's key group back with its key, so that a key is hashed to its key group once. Task thread
 * only.
 */
public final class InternalTimerServiceImpl<K, N> implements InternalTimerService<N> {

    private final KeyContext keyContext;
    private final ProcessingTimeService processingTimeService;
    private final KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<K, N>> eventTimeTimers;
    private final KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<K, N>> processingTimeTimers;
    private final Triggerable<K, N> triggerable;

    private long currentWatermark = Long.MIN_VALUE;
    /**
     * The key, namespace and time of the event-time timer registered last, while it is certainly still
     * queued (the key null otherwise). Operators often register the same timer twice in a row (a window's
     * trigger and its cleanup), and recognising that here saves a deduplication lookup in the queue.
     */
    private Object lastEventKey;
    private Object lastEventNamespace;
    private long lastEventTime;
    /**
     * The event-time timer being fired, which is no longer queued, as its parts (the key null when none
     * fires). Operators usually delete the timer that is firing (a window clears its trigger), and
     * recognising it here saves a lookup that is certain to miss. Cleared when an equal timer is
     * registered again.
     */
    private Object firingKey;
    private Object firingNamespace;
    private long firingTime;
    /** Where the queue puts each event-time timer it fires; reused. */
    private final PolledParts polled = new PolledParts();

    private ProcessingTimeService.Cancellable nextWakeUp;
    private long nextWakeUpTime = Long.MAX_VALUE;

    public InternalTimerServiceImpl(
            KeyContext keyContext,
            ProcessingTimeService processingTimeService,
            KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<K, N>> eventTimeTimers,
            KeyGroupedInternalPriorityQueue<TimerHeapInternalTimer<K, N>> processingTimeTimers,
            Triggerable<K, N> triggerable) {
        this.keyContext = Objects.requireNonNull(keyContext);
        this.processingTimeService = Objects.requireNonNull(processingTimeService);
        this.eventTimeTimers = Objects.requireNonNull(eventTimeTimers);
        this.processingTimeTimers = Objects.requireNonNull(processingTimeTimers);
        this.triggerable = Objects.requireNonNull(triggerable);
        // Restored processing-time timers need their wake-up.
        TimerHeapInternalTimer<K, N> head = processingTimeTimers.peek();
        if (head != null) {
            scheduleWakeUp(head.getTimestamp());
        }
    }

    @Override
    public long currentProcessingTime() {
        return processingTimeService.getCurrentProcessingTime();
    }

    /**
     * BATCH with input sorted by key: the key whose timers all fired is done, and the next key starts with no
     * watermark (as Flink's batch timer service), so its records are not late.
     */
    public void resetWatermarkForNextKey() {
        currentWatermark = Long.MIN_VALUE;
    }

    @Override
    public long currentWatermark() {
        return currentWatermark;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void registerProcessingTimeTimer(N namespace, long time) {
        TimerHeapInternalTimer<K, N> timer = new TimerHeapInternalTimer<>(time, (K) retainedKey(), namespace);
        if (processingTimeTimers.add(timer, keyContext.currentKeyGroup()) && time < nextWakeUpTime) {
            scheduleWakeUp(time);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public void deleteProcessingTimeTimer(N namespace, long time) {
        // The physical wake-up stays; if it finds nothing due it just re-arms for the new head.
        processingTimeTimers.remove(new TimerHeapInternalTimer<>(time, (K) currentKey(), namespace),
                keyContext.currentKeyGroup());
    }

    @Override
    @SuppressWarnings("unchecked")
    public void registerEventTimeTimer(N namespace, long time) {
        K key = Objects.requireNonNull((K) retainedKey(), "timer key");
        Objects.requireNonNull(namespace, "timer namespace");
        Object lastKey = lastEventKey;
        if (lastKey != null && lastEventTime == time && lastKey.equals(key) && lastEventNamespace.equals(namespace)) {
            return;
        }
        if (isFiring(key, namespace, time)) {
            firingKey = null;
        }
        // by its parts: a queue that keeps pending timers as their parts then makes no timer object at all
        eventTimeTimers.addParts(TimerHeapInternalTimer.byTimestamp(), time, key, namespace, keyContext.currentKeyGroup());
        lastEventKey = key;
        lastEventNamespace = namespace;
        lastEventTime = time;
    }

    @Override
    @SuppressWarnings("unchecked")
    public void deleteEventTimeTimer(N namespace, long time) {
        lastEventKey = null;
        if (isFiring(currentKey(), namespace, time)) {
            return;
        }
        eventTimeTimers.remove(new TimerHeapInternalTimer<>(time, (K) currentKey(), namespace),
                keyContext.currentKeyGroup());
    }

    @Override
    public int numEventTimeTimers() {
        return eventTimeTimers.size();
    }

    @Override
    public int numProcessingTimeTimers() {
        return processingTimeTimers.size();
    }

    /** Fires, in order, every event-time timer at or before {@code watermark}. */
    @SuppressWarnings("unchecked")
    public void advanceWatermark(long watermark) throws Exception {
        currentWatermark = watermark;
        PolledParts timer = polled;
        PartedLongPriority<TimerHeapInternalTimer<K, N>> byTimestamp = TimerHeapInternalTimer.byTimestamp();
        // by its parts: a queue that keeps pending timers as their parts then makes no timer object at all
        while (eventTimeTimers.pollUpTo(watermark, byTimestamp, timer)) {
            K key = (K) timer.firstPart();
            N namespace = (N) timer.secondPart();
            long time = timer.priority();
            lastEventKey = null;
            keyContext.setCurrentKey(key, timer.keyGroup());
            firingKey = key;
            firingNamespace = namespace;
            firingTime = time;
            try {
                triggerable.onEventTime(key, namespace, time);
            } finally {
                firingKey = null;
                firingNamespace = null;
            }
        }
        timer.clear();
    }

    /** Whether the timer of {@code key}, {@code namespace} and {@code time} is the event-time timer firing now. */
    private boolean isFiring(Object key, Object namespace, long time) {
        Object firing = firingKey;
        return firing != null && firingTime == time && firing.equals(key) && firingNamespace.equals(namespace);
    }

    /**
     * Fires, in order, every processing-time timer at or before {@code time}, as if processing time had
     * reached it (BATCH execution fires them all at the end of input this way).
     */
    public void advanceProcessingTime(long time) throws Exception {
        onProcessingTime(time);
    }

    /** Fires every processing-time timer due at {@code time}; called by the physical wake-up. */
    void onProcessingTime(long time) throws Exception {
        nextWakeUp = null;
        nextWakeUpTime = Long.MAX_VALUE;
        TimerHeapInternalTimer<K, N> timer;
        while ((timer = processingTimeTimers.peek()) != null && timer.getTimestamp() <= time) {
            int keyGroup = processingTimeTimers.peekKeyGroup();
            processingTimeTimers.poll();
            keyContext.setCurrentKey(timer.getKey(), keyGroup);
            triggerable.onProcessingTime(timer);
        }
        timer = processingTimeTimers.peek();
        if (timer != null && timer.getTimestamp() < nextWakeUpTime) {
            scheduleWakeUp(timer.getTimestamp());
        }
    }

    /** Stops the physical wake-up; queued timers stay in the backend. */
    public void close() {
        if (nextWakeUp != null) {
            nextWakeUp.cancel();
            nextWakeUp = null;
        }
    }

    private void scheduleWakeUp(long time) {
        if (nextWakeUp != null) {
            nextWakeUp.cancel();
        }
        nextWakeUpTime = time;
        nextWakeUp = processingTimeService.registerTimer(time, this::onProcessingTime);
    }

    private Object currentKey() {
        return requireKey(keyContext.getCurrentKey());
    }

    /** The current key as the object a new timer keeps (see {@link KeyContext#retainedCurrentKey}). */
    private Object retainedKey() {
        return requireKey(keyContext.retainedCurrentKey());
    }

    private static Object requireKey(Object key) {
        if (key == null) {
            throw new IllegalStateException("Timers can only be set for a key: no current key is set. "
                    + "Use timers in a KeyedProcessFunction (after keyBy), while processing a record or a timer.");
        }
        return key;
    }
}
