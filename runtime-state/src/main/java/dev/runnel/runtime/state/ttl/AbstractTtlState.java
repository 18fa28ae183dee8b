package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalKvState;

/**
 * Base of the TTL decorators: holds the store's raw state (whose values are {@link TtlValue}s), the
 * TTL settings and the clock, and forwards what does not depend on expiry.
 *
 * <p>Task thread only.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <SV> the user's stored value type, as the decorator presents it
 * @param <RAW> the raw state type
 */
abstract class AbstractTtlState<K, N, SV, RAW extends InternalKvState<K, N, ?>> implements InternalKvState<K, N, SV> {

    final RAW raw;
    final TtlTimeProvider timeProvider;
    final long ttlMillis;
    final boolean updateOnRead;
    final boolean returnExpired;
    private final TypeSerializer<SV> userValueSerializer;

    AbstractTtlState(RAW raw, StateTtlConfig config, TtlTimeProvider timeProvider, TypeSerializer<SV> userValueSerializer) {
        this.raw = raw;
        this.timeProvider = timeProvider;
        this.ttlMillis = config.getTtl().toMillis();
        this.updateOnRead = config.getUpdateType() == StateTtlConfig.UpdateType.OnReadAndWrite;
        this.returnExpired = config.getStateVisibility() == StateTtlConfig.StateVisibility.ReturnExpiredIfNotCleanedUp;
        this.userValueSerializer = userValueSerializer;
    }

    final long now() {
        return timeProvider.currentTimestamp();
    }

    final boolean expired(TtlValue<?> value, long now) {
        return TtlSnapshotFilter.isExpired(value.getLastAccessTimestamp(), ttlMillis, now);
    }

    @Override
    public final void setCurrentNamespace(N namespace) {
        raw.setCurrentNamespace(namespace);
    }

    @Override
    public final void clear() {
        raw.clear();
    }

    @Override
    public final TypeSerializer<K> getKeySerializer() {
        return raw.getKeySerializer();
    }

    @Override
    public final TypeSerializer<N> getNamespaceSerializer() {
        return raw.getNamespaceSerializer();
    }

    /** The user's serializer of the stored value (not the TTL-wrapped one the store uses). */
    @Override
    public final TypeSerializer<SV> getValueSerializer() {
        return userValueSerializer;
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "{" + raw + ", ttl=" + ttlMillis + "ms}";
    }
}
