package dev.runnel.runtime.io;

import java.util.concurrent.CompletableFuture;

/**
 * Something that is sometimes unable to make progress (an input with no data, an output with no room)
 * and says so without blocking, as Flink's {@code AvailabilityProvider}: {@link #isAvailable()} is the
 * cheap check for the owning thread, {@link #getAvailableFuture()} a future that completes once it may
 * be available again, for whoever must wait. A completed future may be stale by the time it is seen:
 * callers re-check {@link #isAvailable()}.
 */
public interface AvailabilityProvider {

    /** The shared, already completed future returned while available. */
    CompletableFuture<Void> AVAILABLE = CompletableFuture.completedFuture(null);

    /** Whether progress is possible right now. Owning thread only; no allocation. */
    boolean isAvailable();

    /**
     * {@link #AVAILABLE} when progress is possible now, else a future that completes (on another thread)
     * once it may be. Owning thread only.
     */
    CompletableFuture<Void> getAvailableFuture();
}
