package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.runtime.state.TtlTimeProvider;
import java.util.Objects;

/**
 * Decides whether a TTL-wrapped entry has expired, for stores that drop expired entries outside of
 * user access: when writing a snapshot (both stores), or in compaction (RocksDB). An entry expires
 * once {@code lastAccessTimestamp + ttl <= now}.
 *
 * <p>Immutable; safe from any thread.
 */
public final class TtlSnapshotFilter {

    private final long ttlMillis;
    private final TtlTimeProvider timeProvider;

    public TtlSnapshotFilter(StateTtlConfig config, TtlTimeProvider timeProvider) {
        if (!config.isEnabled()) {
            throw new IllegalArgumentException("time-to-live is not enabled in " + config);
        }
        this.ttlMillis = config.getTtl().toMillis();
        this.timeProvider = Objects.requireNonNull(timeProvider, "timeProvider");
    }

    /** The current time of the TTL clock; take it once per snapshot. */
    public long now() {
        return timeProvider.currentTimestamp();
    }

    public boolean isExpired(TtlValue<?> value, long now) {
        return isExpired(value.getLastAccessTimestamp(), ttlMillis, now);
    }

    /** True if a serialized {@link TtlValue} at {@code offset} of {@code bytes} has expired. */
    public boolean isExpired(byte[] bytes, int offset, long now) {
        return isExpired(TtlValueSerializer.readTimestamp(bytes, offset), ttlMillis, now);
    }

    /** True if a value last accessed at {@code lastAccess} has expired by {@code now}. */
    public static boolean isExpired(long lastAccess, long ttlMillis, long now) {
        // saturate instead of overflowing for timestamps near Long.MAX_VALUE
        long expiresAt = lastAccess > Long.MAX_VALUE - ttlMillis ? Long.MAX_VALUE : lastAccess + ttlMillis;
        return expiresAt <= now;
    }
}
