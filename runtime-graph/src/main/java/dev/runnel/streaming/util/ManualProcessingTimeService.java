package dev.runnel.streaming.util;

import dev.runnel.runtime.timers.ProcessingTimeService;
import java.util.PriorityQueue;

/**
 * Processing time that only moves when a test says so: callbacks run, in time order, inside
 * {@link #advanceTo(long)}. Single-threaded, like a task.
 */
public final class ManualProcessingTimeService implements ProcessingTimeService {

    private record Scheduled(long time, long sequence, ProcessingTimeCallback callback, boolean[] cancelled) {}

    private final PriorityQueue<Scheduled> queue = new PriorityQueue<>((a, b) -> a.time != b.time
            ? Long.compare(a.time, b.time) : Long.compare(a.sequence, b.sequence));
    private long now;
    private long sequence;

    public ManualProcessingTimeService(long startTime) {
        this.now = startTime;
    }

    @Override
    public long getCurrentProcessingTime() {
        return now;
    }

    @Override
    public Cancellable registerTimer(long timestamp, ProcessingTimeCallback callback) {
        boolean[] cancelled = {false};
        queue.add(new Scheduled(timestamp, sequence++, callback, cancelled));
        return () -> cancelled[0] = true;
    }

    /** Moves time to {@code time} and runs every callback due by then (including ones they register). */
    public void advanceTo(long time) throws Exception {
        if (time < now) {
            throw new IllegalArgumentException("processing time cannot go back from " + now + " to " + time);
        }
        now = time;
        Scheduled next;
        while ((next = queue.peek()) != null && next.time <= now) {
            queue.poll();
            if (!next.cancelled[0]) {
                next.callback.onProcessingTime(next.time);
            }
        }
    }

    /** The number of callbacks waiting (cancelled ones included until their time passes). */
    public int pendingTimers() {
        return (int) queue.stream().filter(s -> !s.cancelled[0]).count();
    }
}
