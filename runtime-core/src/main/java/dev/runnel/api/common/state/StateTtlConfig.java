package dev.runnel.api.common.state;

import java.io.Serializable;
import java.time.Duration;
import java.util.Objects;

/**
 * Time-to-live of keyed state entries, in processing time. Expired entries are never returned
 * (with {@link StateVisibility#NeverReturnExpired}) and are dropped when read and when a full
 * snapshot is written.
 *
 * <pre>{@code
 * StateTtlConfig ttl = StateTtlConfig.newBuilder(Duration.ofHours(1))
 *         .setUpdateType(StateTtlConfig.UpdateType.OnReadAndWrite)
 *         .build();
 * descriptor.enableTimeToLive(ttl);
 * }</pre>
 *
 * Immutable.
 */
public final class StateTtlConfig implements Serializable {

    private static final long serialVersionUID = 1L;

    /** No expiry. */
    public static final StateTtlConfig DISABLED = new StateTtlConfig(UpdateType.Disabled,
            StateVisibility.NeverReturnExpired, Duration.ofMillis(Long.MAX_VALUE));

    /** When an entry's clock restarts. */
    public enum UpdateType {
        Disabled,
        /** Restart on create and on every write. */
        OnCreateAndWrite,
        /** Restart on create, write and read. */
        OnReadAndWrite
    }

    /** Whether an expired entry not yet removed may still be returned. */
    public enum StateVisibility {
        ReturnExpiredIfNotCleanedUp,
        NeverReturnExpired
    }

    private final UpdateType updateType;
    private final StateVisibility stateVisibility;
    private final Duration ttl;

    private StateTtlConfig(UpdateType updateType, StateVisibility stateVisibility, Duration ttl) {
        this.updateType = updateType;
        this.stateVisibility = stateVisibility;
        this.ttl = ttl;
    }

    public static Builder newBuilder(Duration ttl) {
        return new Builder(ttl);
    }

    public boolean isEnabled() {
        return updateType != UpdateType.Disabled;
    }

    public UpdateType getUpdateType() {
        return updateType;
    }

    public StateVisibility getStateVisibility() {
        return stateVisibility;
    }

    public Duration getTtl() {
        return ttl;
    }

    @Override
    public String toString() {
        return "StateTtlConfig{updateType=" + updateType + ", visibility=" + stateVisibility + ", ttl=" + ttl + '}';
    }

    /** Builds a {@link StateTtlConfig}; not thread-safe. */
    public static final class Builder {
        private final Duration ttl;
        private UpdateType updateType = UpdateType.OnCreateAndWrite;
        private StateVisibility stateVisibility = StateVisibility.NeverReturnExpired;

        private Builder(Duration ttl) {
            Objects.requireNonNull(ttl, "ttl");
            if (ttl.isZero() || ttl.isNegative()) {
                throw new IllegalArgumentException("A state TTL must be positive, was " + ttl);
            }
            this.ttl = ttl;
        }

        public Builder setUpdateType(UpdateType updateType) {
            if (updateType == UpdateType.Disabled) {
                throw new IllegalArgumentException("Use StateTtlConfig.DISABLED instead of UpdateType.Disabled");
            }
            this.updateType = Objects.requireNonNull(updateType, "updateType");
            return this;
        }

        public Builder updateTtlOnCreateAndWrite() {
            return setUpdateType(UpdateType.OnCreateAndWrite);
        }

        public Builder updateTtlOnReadAndWrite() {
            return setUpdateType(UpdateType.OnReadAndWrite);
        }

        public Builder setStateVisibility(StateVisibility visibility) {
            this.stateVisibility = Objects.requireNonNull(visibility, "visibility");
            return this;
        }

        public Builder neverReturnExpired() {
            return setStateVisibility(StateVisibility.NeverReturnExpired);
        }

        public Builder returnExpiredIfNotCleanedUp() {
            return setStateVisibility(StateVisibility.ReturnExpiredIfNotCleanedUp);
        }

        public StateTtlConfig build() {
            return new StateTtlConfig(updateType, stateVisibility, ttl);
        }
    }
}
