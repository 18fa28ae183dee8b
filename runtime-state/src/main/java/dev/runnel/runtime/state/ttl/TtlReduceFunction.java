package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.runtime.state.TtlTimeProvider;

/**
 * The reduce function of a TTL reducing state's raw state: reduces the user values of two
 * {@link TtlValue}s and stamps the result with the current time. An expired side is ignored; if both
 * expired the result is null, which raw states treat as "no value".
 */
final class TtlReduceFunction<T> implements ReduceFunction<TtlValue<T>> {

    private static final long serialVersionUID = 1L;

    private final ReduceFunction<T> userFunction;
    private final long ttlMillis;
    private final transient TtlTimeProvider timeProvider;

    TtlReduceFunction(ReduceFunction<T> userFunction, StateTtlConfig config, TtlTimeProvider timeProvider) {
        this.userFunction = userFunction;
        this.ttlMillis = config.getTtl().toMillis();
        this.timeProvider = timeProvider;
    }

    @Override
    public TtlValue<T> reduce(TtlValue<T> a, TtlValue<T> b) throws Exception {
        long now = timeProvider.currentTimestamp();
        boolean aExpired = TtlSnapshotFilter.isExpired(a.getLastAccessTimestamp(), ttlMillis, now);
        boolean bExpired = TtlSnapshotFilter.isExpired(b.getLastAccessTimestamp(), ttlMillis, now);
        if (aExpired) {
            return bExpired ? null : b;
        }
        if (bExpired) {
            return a;
        }
        return new TtlValue<>(userFunction.reduce(a.getUserValue(), b.getUserValue()), now);
    }
}
