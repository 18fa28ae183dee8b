package dev.runnel.runtime.executiongraph.failover;

import dev.runnel.util.Preconditions;

/**
 * Restarts up to a fixed number of times, always after the same delay
 * ({@code restart-strategy.type: fixed-delay}). With {@code attempts = 2}: failures 1 and 2 restart,
 * failure 3 fails the job. {@code attempts = 0} never restarts.
 *
 * <p>Not thread-safe (see {@link RestartBackoffTimeStrategy}).
 */
public final class FixedDelayRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {

    private final int maxNumberRestartAttempts;
    private final long backoffTimeMs;
    private int failures;

    /**
     * @param maxNumberRestartAttempts restarts allowed, 0 or more
     * @param backoffTimeMs milliseconds before each restart, 0 or more
     */
    public FixedDelayRestartBackoffTimeStrategy(int maxNumberRestartAttempts, long backoffTimeMs) {
        Preconditions.checkArgument(maxNumberRestartAttempts >= 0,
                "The number of restart attempts must be 0 or more, was %s", maxNumberRestartAttempts);
        Preconditions.checkArgument(backoffTimeMs >= 0, "The restart delay must be 0 ms or more, was %s ms",
                backoffTimeMs);
        this.maxNumberRestartAttempts = maxNumberRestartAttempts;
        this.backoffTimeMs = backoffTimeMs;
    }

    @Override
    public boolean canRestart() {
        return failures <= maxNumberRestartAttempts;
    }

    @Override
    public long getBackoffTime() {
        return backoffTimeMs;
    }

    @Override
    public void notifyFailure(Throwable cause) {
        // Saturate rather than wrap: a job restarted Integer.MAX_VALUE times must not become restartable again.
        if (failures < Integer.MAX_VALUE) {
            failures++;
        }
    }

    @Override
    public String getDescription() {
        return String.format("FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts=%d, backoffTimeMS=%d)",
                maxNumberRestartAttempts, backoffTimeMs);
    }

    @Override
    public String toString() {
        return getDescription();
    }

    /** Creates fresh strategies with the same settings. */
    public record FixedDelayRestartBackoffTimeStrategyFactory(int maxNumberRestartAttempts, long backoffTimeMs)
            implements Factory {

        @Override
        public RestartBackoffTimeStrategy create() {
            return new FixedDelayRestartBackoffTimeStrategy(maxNumberRestartAttempts, backoffTimeMs);
        }
    }
}
