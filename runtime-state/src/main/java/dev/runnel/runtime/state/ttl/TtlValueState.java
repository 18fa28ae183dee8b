package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalValueState;
import java.io.IOException;

/**
 * {@link dev.runnel.api.common.state.ValueState} with a time-to-live, over a raw value state of
 * {@link TtlValue}s. An expired value is removed when read; it is returned that one time only with
 * {@code ReturnExpiredIfNotCleanedUp}. Writes (and reads with {@code OnReadAndWrite}) restart the
 * clock.
 *
 * <p>Task thread only.
 */
public final class TtlValueState<K, N, T> extends AbstractTtlState<K, N, T, InternalValueState<K, N, TtlValue<T>>>
        implements InternalValueState<K, N, T> {

    public TtlValueState(InternalValueState<K, N, TtlValue<T>> raw, StateTtlConfig config,
            TtlTimeProvider timeProvider, TypeSerializer<T> userValueSerializer) {
        super(raw, config, timeProvider, userValueSerializer);
    }

    @Override
    public T value() throws IOException {
        TtlValue<T> stored = raw.value();
        if (stored == null) {
            return null;
        }
        long now = now();
        if (expired(stored, now)) {
            raw.clear();
            return returnExpired ? stored.getUserValue() : null;
        }
        if (updateOnRead) {
            raw.update(new TtlValue<>(stored.getUserValue(), now));
        }
        return stored.getUserValue();
    }

    @Override
    public void update(T value) throws IOException {
        if (value == null) {
            raw.clear();
        } else {
            raw.update(new TtlValue<>(value, now()));
        }
    }
}
