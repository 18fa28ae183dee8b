package dev.runnel.runtime.state.backend;

import dev.runnel.runtime.state.KeyGroupRange;
import dev.runnel.runtime.state.KeyGroupRangeOffsets;
import dev.runnel.runtime.state.KeyedStateSnapshot;
import java.io.IOException;
import java.io.OutputStream;
import java.util.Objects;
import java.util.Set;

/**
 * The life of a {@link KeyedStateSnapshot}, shared by both stores: written at most once, freed
 * exactly once (after the write, or on release), and releasable from any thread, also while it is
 * being written. A store supplies {@link #write} (which calls {@link #checkNotReleased} now and then,
 * so that a release stops it early) and {@link #free}.
 *
 * <pre>
 *   PENDING --writeTo--&gt; WRITING --write returns or fails, free()--&gt; FINISHED
 *   PENDING --release--&gt; FREEING --free()--&gt; FINISHED
 *   WRITING --release--&gt; (the writer stops at its next check)
 * </pre>
 *
 * <p>Thread-safe: the phase is guarded by a lock held only for the transitions, never while writing
 * or freeing. {@link #awaitFinished} lets the backend's close wait until no thread uses its
 * resources any more.
 */
public abstract class AbstractKeyedStateSnapshot implements KeyedStateSnapshot {

    private enum Phase { PENDING, WRITING, FREEING, FINISHED }

    private final KeyGroupRange keyGroupRange;
    private final String description;
    private final Object lock = new Object();
    /** Guarded by {@link #lock}. */
    private Phase phase = Phase.PENDING;
    /** Guarded by {@link #lock}. */
    private boolean writeCalled;
    /** The backend's pending snapshots, while this one is pending; guarded by {@link #lock}. */
    private Set<AbstractKeyedStateSnapshot> tracker;
    /** Read by the writer between pieces of work: a release asks it to stop. */
    private volatile boolean released;

    /**
     * @param keyGroupRange the key groups the snapshot holds
     * @param description names the snapshot in messages (operator and range)
     */
    protected AbstractKeyedStateSnapshot(KeyGroupRange keyGroupRange, String description) {
        this.keyGroupRange = Objects.requireNonNull(keyGroupRange, "keyGroupRange");
        this.description = Objects.requireNonNull(description, "description");
    }

    @Override
    public final KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    @Override
    public final KeyGroupRangeOffsets writeTo(OutputStream out) throws IOException {
        Objects.requireNonNull(out, "out");
        synchronized (lock) {
            if (writeCalled) {
                throw new IllegalStateException("The " + description + " was written before: write a snapshot once");
            }
            writeCalled = true;
            if (phase != Phase.PENDING) {
                throw new IOException("The " + description + " was released before it was written");
            }
            phase = Phase.WRITING;
        }
        try {
            return write(out);
        } finally {
            finish();
        }
    }

    @Override
    public final void release() {
        synchronized (lock) {
            released = true;
            if (phase != Phase.PENDING) {
                return; // being written (the writer stops and frees), being freed, or finished
            }
            phase = Phase.FREEING;
        }
        finish();
    }

    /**
     * Writes the snapshot; called once, by {@link #writeTo}. Calls {@link #checkNotReleased} between
     * pieces of work of bounded size (e.g. per key group).
     */
    protected abstract KeyGroupRangeOffsets write(OutputStream out) throws IOException;

    /** Frees what the snapshot pinned; called once, on the thread that wrote or released it. */
    protected abstract void free();

    /** Fails if the snapshot was released; for {@link #write} to stop early. */
    protected final void checkNotReleased() throws IOException {
        if (released) {
            throw new IOException("The " + description + " was released while it was written");
        }
    }

    /** Registers this pending snapshot in {@code pending}, which it leaves when it is freed. */
    final void trackIn(Set<AbstractKeyedStateSnapshot> pending) {
        synchronized (lock) {
            if (phase == Phase.PENDING) {
                tracker = pending;
                pending.add(this);
            }
        }
    }

    /** Waits until no thread writes or frees this snapshot any more (for the backend's close). */
    final void awaitFinished() {
        boolean interrupted = false;
        synchronized (lock) {
            while (phase == Phase.WRITING || phase == Phase.FREEING) {
                try {
                    lock.wait();
                } catch (InterruptedException e) {
                    // the backend must not free resources a writer still reads: keep waiting
                    interrupted = true;
                }
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }

    private void finish() {
        try {
            free();
        } finally {
            Set<AbstractKeyedStateSnapshot> pending;
            synchronized (lock) {
                phase = Phase.FINISHED;
                pending = tracker;
                tracker = null;
                lock.notifyAll();
            }
            if (pending != null) {
                pending.remove(this);
            }
        }
    }

    @Override
    public String toString() {
        return description;
    }
}
