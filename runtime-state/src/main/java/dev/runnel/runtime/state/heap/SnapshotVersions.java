package dev.runnel.runtime.state.heap;

import java.util.ArrayDeque;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Which snapshots of a heap backend may still read its state entries: the bookkeeping of the heap
 * store's copy-on-write.
 *
 * <p>Every state entry carries the version it was created or last copied in
 * ({@link StateMap.Entry#version}, {@link #current()}). A snapshot takes the next version and pins
 * it. An entry whose version is below the highest pinned version existed, unchanged, when that
 * snapshot was taken, so the snapshot may read it: the task thread changes a copy instead, which gets
 * the current version, so the entry is copied once per snapshot at most. With no snapshot pinned
 * {@link #highestPinned} is 0 and no entry is below it: then the only cost on the write path is one
 * int compare.
 *
 * <p>Threads: the task thread pins, reads {@link #highestPinned} and calls {@link #mustCopy}; any
 * thread releases a {@link Pin}. A release takes effect on the task thread at its next {@link #pin}
 * or {@link #mustCopy}, so that the write path reads a plain field; until then the task thread may
 * copy an entry that no snapshot reads any more, which costs a little and is always correct.
 */
final class SnapshotVersions {

    /** One snapshot's claim on the entries of its version. */
    final class Pin {
        final int version;
        private volatile boolean released;

        private Pin(int version) {
            this.version = version;
        }

        /** Ends the claim; any thread, idempotent. */
        void release() {
            released = true;
            releasedAny.set(true);
        }
    }

    /**
     * Entries with a version below this may be read by a pinned snapshot; 0 when none is pinned. Task
     * thread; read on every state write, so a plain field.
     */
    int highestPinned;
    /** The version new entries and copies get; the last pinned version, or 0 before the first snapshot. */
    private int current;
    /** Pinned versions, oldest first. Task thread. */
    private final ArrayDeque<Pin> pins = new ArrayDeque<>();
    /** Set by any thread's release, cleared by the task thread when it drops released pins. */
    private final AtomicBoolean releasedAny = new AtomicBoolean();

    /** The version of entries created or copied now. */
    int current() {
        return current;
    }

    /** Pins a new version for a snapshot: from now on, entries of earlier versions are copied before they change. */
    Pin pin() {
        dropReleased();
        if (current == Integer.MAX_VALUE) {
            throw new IllegalStateException("a heap backend takes at most " + Integer.MAX_VALUE + " snapshots");
        }
        Pin pin = new Pin(++current);
        pins.addLast(pin);
        highestPinned = pin.version;
        return pin;
    }

    /**
     * Whether an entry of {@code version} must be copied before it changes; the slow path behind a
     * {@code version < highestPinned} check, which applies pending releases first.
     */
    boolean mustCopy(int version) {
        dropReleased();
        return version < highestPinned;
    }

    /** The number of pinned snapshots (releases applied); for tests. */
    int pinnedCount() {
        dropReleased();
        return pins.size();
    }

    private void dropReleased() {
        if (releasedAny.get() && releasedAny.getAndSet(false)) {
            pins.removeIf(pin -> pin.released);
            highestPinned = pins.isEmpty() ? 0 : pins.peekLast().version;
        }
    }
}
