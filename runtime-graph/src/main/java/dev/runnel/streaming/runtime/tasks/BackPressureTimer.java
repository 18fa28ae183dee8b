package dev.runnel.streaming.runtime.tasks;

import dev.runnel.metrics.Gauge;

/**
 * How much of each second a task spent in one kind of wait: for room in its outputs (Flink's
 * {@code backPressuredTimeMsPerSecond}) or for input ({@code idleTimeMsPerSecond}). The task thread adds the length of every wait; a sampler
 * ({@link #sample}, once a second from the timer thread) turns the total into milliseconds per second of the
 * last interval, which the gauge reports. A wait still in progress counts up to the moment of sampling.
 */
final class BackPressureTimer implements Gauge<Long> {

    private volatile long totalNanos;
    private volatile long waitStartNanos = -1;
    private long lastSampleNanos = System.nanoTime();
    private long lastTotalNanos;
    private volatile long msPerSecond;

    /** Task thread: a wait for output room begins. */
    void startWait() {
        waitStartNanos = System.nanoTime();
    }

    /** Task thread: the wait ended. */
    void endWait() {
        long start = waitStartNanos;
        if (start >= 0) {
            totalNanos = totalNanos + (System.nanoTime() - start);
            waitStartNanos = -1;
        }
    }

    /** Timer thread: closes an interval. */
    synchronized void sample() {
        long now = System.nanoTime();
        long start = waitStartNanos;
        long total = totalNanos + (start >= 0 ? now - Math.max(start, lastSampleNanos) : 0);
        long elapsed = now - lastSampleNanos;
        if (elapsed > 0) {
            msPerSecond = Math.min(1000, Math.max(0, (total - lastTotalNanos) * 1000 / elapsed));
        }
        lastSampleNanos = now;
        lastTotalNanos = total;
    }

    @Override
    public Long getValue() {
        return msPerSecond;
    }
}
