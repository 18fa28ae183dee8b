package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalAggregatingState;
import java.util.Collection;

/**
 * {@link dev.runnel.api.common.state.AggregatingState} with a time-to-live, over a raw aggregating
 * state whose accumulators are {@link TtlValue}s and whose aggregate function is the user's wrapped by
 * {@link TtlStateFactory} (adding to an expired accumulator starts a fresh one). Reading drops an
 * expired accumulator.
 *
 * <p>Task thread only.
 */
public final class TtlAggregatingState<K, N, IN, ACC, OUT>
        extends AbstractTtlState<K, N, ACC, InternalAggregatingState<K, N, IN, TtlValue<ACC>, OUT>>
        implements InternalAggregatingState<K, N, IN, ACC, OUT> {

    private final AggregateFunction<IN, ACC, OUT> userFunction;

    public TtlAggregatingState(InternalAggregatingState<K, N, IN, TtlValue<ACC>, OUT> raw, StateTtlConfig config,
            TtlTimeProvider timeProvider, TypeSerializer<ACC> accumulatorSerializer,
            AggregateFunction<IN, ACC, OUT> userFunction) {
        super(raw, config, timeProvider, accumulatorSerializer);
        this.userFunction = userFunction;
    }

    @Override
    public OUT get() throws Exception {
        TtlValue<ACC> accumulator = read();
        return accumulator == null ? null : userFunction.getResult(accumulator.getUserValue());
    }

    @Override
    public void add(IN value) throws Exception {
        raw.add(value);
    }

    @Override
    public ACC getInternal() throws Exception {
        TtlValue<ACC> accumulator = read();
        return accumulator == null ? null : accumulator.getUserValue();
    }

    @Override
    public void updateInternal(ACC valueToStore) throws Exception {
        raw.updateInternal(valueToStore == null ? null : new TtlValue<>(valueToStore, now()));
    }

    @Override
    public void mergeNamespaces(N target, Collection<N> sources) throws Exception {
        raw.mergeNamespaces(target, sources);
    }

    private TtlValue<ACC> read() throws Exception {
        TtlValue<ACC> stored = raw.getInternal();
        if (stored == null) {
            return null;
        }
        long now = now();
        if (expired(stored, now)) {
            raw.clear();
            return returnExpired ? stored : null;
        }
        if (updateOnRead) {
            raw.updateInternal(new TtlValue<>(stored.getUserValue(), now));
        }
        return stored;
    }
}
