package dev.runnel.runtime.executiongraph.failover;

/**
 * Never restarts: the first failure fails the job. Stateless, so one shared instance serves every job;
 * thread-safe.
 */
public enum NoRestartBackoffTimeStrategy implements RestartBackoffTimeStrategy {
    INSTANCE;

    @Override
    public boolean canRestart() {
        return false;
    }

    @Override
    public long getBackoffTime() {
        return 0L;
    }

    @Override
    public void notifyFailure(Throwable cause) {
        // Nothing to count: the answer is always no.
    }

    @Override
    public String getDescription() {
        return "NoRestartBackoffTimeStrategy (restart-strategy.type: none)";
    }

    @Override
    public String toString() {
        return getDescription();
    }

    /** Hands out {@link #INSTANCE}. */
    public enum NoRestartBackoffTimeStrategyFactory implements Factory {
        INSTANCE;

        @Override
        public RestartBackoffTimeStrategy create() {
            return NoRestartBackoffTimeStrategy.INSTANCE;
        }
    }
}
