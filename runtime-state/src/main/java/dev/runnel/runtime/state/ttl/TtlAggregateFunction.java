package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.runtime.state.TtlTimeProvider;

/**
 * The aggregate function of a TTL aggregating state's raw state: accumulators are {@link TtlValue}s
 * stamped with the time of their last change. Adding to an expired accumulator starts a fresh one;
 * merging ignores an expired side (null if both expired, which raw states treat as "no value").
 */
final class TtlAggregateFunction<IN, ACC, OUT> implements AggregateFunction<IN, TtlValue<ACC>, OUT> {

    private static final long serialVersionUID = 1L;

    private final AggregateFunction<IN, ACC, OUT> userFunction;
    private final long ttlMillis;
    private final transient TtlTimeProvider timeProvider;

    TtlAggregateFunction(AggregateFunction<IN, ACC, OUT> userFunction, StateTtlConfig config,
            TtlTimeProvider timeProvider) {
        this.userFunction = userFunction;
        this.ttlMillis = config.getTtl().toMillis();
        this.timeProvider = timeProvider;
    }

    private boolean expired(TtlValue<ACC> value, long now) {
        return TtlSnapshotFilter.isExpired(value.getLastAccessTimestamp(), ttlMillis, now);
    }

    @Override
    public TtlValue<ACC> createAccumulator() {
        return new TtlValue<>(userFunction.createAccumulator(), timeProvider.currentTimestamp());
    }

    @Override
    public TtlValue<ACC> add(IN value, TtlValue<ACC> accumulator) {
        long now = timeProvider.currentTimestamp();
        ACC acc = accumulator == null || expired(accumulator, now)
                ? userFunction.createAccumulator()
                : accumulator.getUserValue();
        return new TtlValue<>(userFunction.add(value, acc), now);
    }

    @Override
    public OUT getResult(TtlValue<ACC> accumulator) {
        return userFunction.getResult(accumulator.getUserValue());
    }

    @Override
    public TtlValue<ACC> merge(TtlValue<ACC> a, TtlValue<ACC> b) {
        long now = timeProvider.currentTimestamp();
        boolean aExpired = expired(a, now);
        boolean bExpired = expired(b, now);
        if (aExpired) {
            return bExpired ? null : b;
        }
        if (bExpired) {
            return a;
        }
        return new TtlValue<>(userFunction.merge(a.getUserValue(), b.getUserValue()), now);
    }
}
