package dev.runnel.metrics;

/**
 * A {@link Counter} for a single writer thread: plain increments published through a volatile
 * field that readers (reporters, the web view) see within a moment. No locks, no atomics.
 */
public final class SimpleCounter implements Counter {

    private volatile long count;

    @Override
    public void inc() {
        count = count + 1;
    }

    @Override
    public void inc(long n) {
        count = count + n;
    }

    @Override
    public void dec() {
        count = count - 1;
    }

    @Override
    public void dec(long n) {
        count = count - n;
    }

    @Override
    public long getCount() {
        return count;
    }
}
