package dev.runnel.runtime.io;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;

/**
 * Parks one task thread while it has nothing to do, and lets other threads wake it when they may have
 * given it something: data in an input channel, space in an output channel, a mail.
 *
 * <p>Protocol (no lost wake-ups): the owner calls {@link #prepareToPark()}, re-checks every condition
 * it waits for, then calls {@link #park(long)}. Another thread first publishes its change (a volatile
 * write), then calls {@link #wake()}. Because both sides write, then read the other's flag, with
 * volatile semantics, one of them always sees the other. Spurious wake-ups are possible; owners loop.
 */
public final class TaskWaker {

    private final Thread owner;
    private volatile boolean parked;

    public TaskWaker(Thread owner) {
        this.owner = owner;
    }

    /** A waker for the calling thread. */
    public static TaskWaker forCurrentThread() {
        return new TaskWaker(Thread.currentThread());
    }

    /** Announces that the owner is about to park; it must re-check its conditions after this. */
    public void prepareToPark() {
        parked = true;
    }

    /** Parks the owner up to {@code nanos} (or until woken, or interrupted), then clears the flag. */
    public void park(long nanos) {
        if (nanos > 0) {
            LockSupport.parkNanos(this, nanos);
        }
        parked = false;
    }

    /** Parks the owner up to a millisecond-ish bound used as a safety net against bugs. */
    public void park() {
        park(TimeUnit.MILLISECONDS.toNanos(50));
    }

    /** Clears the flag without parking (the re-check found work). */
    public void cancelPark() {
        parked = false;
    }

    /** Wakes the owner if it is parked or about to park. Cheap when it is not. */
    public void wake() {
        if (parked) {
            LockSupport.unpark(owner);
        }
    }

    public Thread owner() {
        return owner;
    }
}
