package dev.runnel.examples.bench;

import java.lang.management.ManagementFactory;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicLong;

/**
 * {@code Bench --trace}: how many records the sinks have seen, sampled every 50 ms while the measured job
 * runs and printed after it as one {@code TRACE} line of {@code ms:Mrecords} pairs, to see how long a cold run
 * takes to reach its steady rate. The line starts with {@code t0_uptime_ms=}, the JVM's uptime at the clock's
 * start, so that the samples can be placed beside the uptimes of {@code -Xlog:gc} and
 * {@code -XX:+PrintCompilation}. The sinks report in steps of {@link #STEP} records; when the trace is off
 * {@link #count} is a constant test the JIT removes, so the measured code is the same.
 *
 * <p>{@link #ON} is read once, from the system property {@value #PROPERTY}, which {@code Bench} sets before
 * anything loads this class. {@link #count} is called by any sink thread; the rest by the thread running the job.
 */
final class RateTrace {

    static final String PROPERTY = "runnel.bench.trace";
    static final boolean ON = Boolean.getBoolean(PROPERTY);
    /** Records per report by a sink: a power of two, so a count is tested with a mask. */
    private static final int STEP = 1 << 16;

    private static final AtomicLong SEEN = new AtomicLong();

    private final long t0;
    private final StringBuilder samples = new StringBuilder();
    private final Thread sampler;

    private RateTrace(long t0) {
        this.t0 = t0;
        this.sampler = new Thread(this::sample, "bench-rate-trace");
        this.sampler.setDaemon(true);
    }

    /** Called by a sink with the number of records it has seen so far, after each one. */
    static void count(long seenBySink) {
        if (ON && (seenBySink & (STEP - 1)) == 0) {
            SEEN.addAndGet(STEP);
        }
    }

    /** Starts sampling from {@code t0} (a {@code System.nanoTime()}), or returns null when the trace is off. */
    static RateTrace start(long t0) {
        if (!ON) {
            return null;
        }
        SEEN.set(0);
        RateTrace trace = new RateTrace(t0);
        trace.sampler.start();
        return trace;
    }

    private void sample() {
        try {
            while (true) {
                Thread.sleep(50);
                samples.append(String.format(Locale.ROOT, " %d:%.2f", (System.nanoTime() - t0) / 1_000_000,
                        SEEN.get() / 1e6));
            }
        } catch (InterruptedException e) {
            // stopped
        }
    }

    /** Stops sampling and prints the trace (the sampler's samples are visible once it has been joined). */
    void stopAndPrint() throws InterruptedException {
        sampler.interrupt();
        sampler.join();
        long uptimeAtT0 = ManagementFactory.getRuntimeMXBean().getUptime()
                - (System.nanoTime() - t0) / 1_000_000;
        System.out.println("TRACE t0_uptime_ms=" + uptimeAtT0 + " ms:Mrecords_at_sinks" + samples);
    }
}
