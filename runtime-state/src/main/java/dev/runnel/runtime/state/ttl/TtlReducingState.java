package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalReducingState;
import java.util.Collection;

/**
 * {@link dev.runnel.api.common.state.ReducingState} with a time-to-live, over a raw reducing state of
 * {@link TtlValue}s whose reduce function is the user's wrapped by {@link TtlStateFactory} (it ignores
 * an expired stored value, so adding after expiry starts afresh). Reading drops an expired value.
 *
 * <p>Task thread only.
 */
public final class TtlReducingState<K, N, T>
        extends AbstractTtlState<K, N, T, InternalReducingState<K, N, TtlValue<T>>>
        implements InternalReducingState<K, N, T> {

    public TtlReducingState(InternalReducingState<K, N, TtlValue<T>> raw, StateTtlConfig config,
            TtlTimeProvider timeProvider, TypeSerializer<T> userValueSerializer) {
        super(raw, config, timeProvider, userValueSerializer);
    }

    @Override
    public T get() throws Exception {
        return getInternal();
    }

    @Override
    public void add(T value) throws Exception {
        if (value == null) {
            raw.clear();
        } else {
            raw.add(new TtlValue<>(value, now()));
        }
    }

    @Override
    public T getInternal() throws Exception {
        TtlValue<T> stored = raw.getInternal();
        if (stored == null) {
            return null;
        }
        long now = now();
        if (expired(stored, now)) {
            raw.clear();
            return returnExpired ? stored.getUserValue() : null;
        }
        if (updateOnRead) {
            raw.updateInternal(new TtlValue<>(stored.getUserValue(), now));
        }
        return stored.getUserValue();
    }

    @Override
    public void updateInternal(T valueToStore) throws Exception {
        raw.updateInternal(valueToStore == null ? null : new TtlValue<>(valueToStore, now()));
    }

    @Override
    public void mergeNamespaces(N target, Collection<N> sources) throws Exception {
        raw.mergeNamespaces(target, sources);
    }
}
