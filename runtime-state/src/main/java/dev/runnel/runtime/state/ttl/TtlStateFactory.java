package dev.runnel.runtime.state.ttl;

import dev.runnel.api.common.state.AggregatingStateDescriptor;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.TtlTimeProvider;
import dev.runnel.runtime.state.internal.InternalAggregatingState;
import dev.runnel.runtime.state.internal.InternalListState;
import dev.runnel.runtime.state.internal.InternalMapState;
import dev.runnel.runtime.state.internal.InternalReducingState;
import dev.runnel.runtime.state.internal.InternalValueState;
import java.util.Objects;

/**
 * Adds time-to-live to any store's keyed state, orthogonally to how the store keeps it: the store
 * creates a plain ("raw") state whose values are {@link TtlValue}s, and this factory wraps it in a
 * decorator ({@link TtlValueState}, {@link TtlListState}, {@link TtlMapState},
 * {@link TtlReducingState}, {@link TtlAggregatingState}) that stamps writes, checks expiry on reads
 * and removes expired entries.
 *
 * <h2>How a store uses it</h2>
 * <pre>{@code
 * public <N, S extends State, T> S getOrCreateKeyedState(TypeSerializer<N> ns, StateDescriptor<S, T> d) {
 *     ...
 *     return TtlStateFactory.createStateAndWrapWithTtlIfEnabled(ns, d, this::createRawState, ttlTimeProvider);
 * }
 *
 * // the store's own state creation; never adds TTL itself
 * <N, SV, S extends State> S createRawState(TypeSerializer<N> ns, StateDescriptor<S, SV> d) { ... }
 * }</pre>
 *
 * For a descriptor with TTL, the raw-state factory receives a new descriptor of the same name and
 * kind whose serializer stores {@link TtlValue}s: the value serializer (value and reducing state), the
 * element serializer (list), the map-value serializer (map) or the accumulator serializer
 * (aggregating) is wrapped in a {@link TtlValueSerializer}, and the reduce or aggregate function is
 * wrapped to handle {@code TtlValue}s. That descriptor's {@code getTtlConfig()} is the user's config,
 * so the store knows its values are wrapped and may drop expired entries when it writes a snapshot
 * (see {@link TtlSnapshotFilter}; in serialized form the timestamp is the first 8 bytes of a value,
 * list element or map value). The store must treat a null result of a reduce or aggregate merge as
 * "no value". Restores need nothing special: snapshots hold the wrapped values, and the wrapped
 * serializer's identity differs from the plain one, so a state cannot silently switch between TTL
 * and no TTL across a restore.
 *
 * <p>Stateless; the states it creates are task-thread-only.
 */
public final class TtlStateFactory {

    /**
     * A store's creation of a plain keyed state for a descriptor (whose serializer must be
     * initialized), with no TTL handling of its own. Implemented by a method reference to a generic
     * method of the store.
     */
    @FunctionalInterface
    public interface RawStateFactory {
        <N, SV, S extends State> S createRawState(TypeSerializer<N> namespaceSerializer,
                StateDescriptor<S, SV> descriptor) throws Exception;
    }

    private TtlStateFactory() {}

    /**
     * The state for {@code descriptor}: created by {@code rawFactory} directly if the descriptor has no
     * TTL, else created for the TTL-wrapped descriptor and decorated.
     */
    @SuppressWarnings("unchecked")
    public static <N, S extends State, V> S createStateAndWrapWithTtlIfEnabled(
            TypeSerializer<N> namespaceSerializer,
            StateDescriptor<S, V> descriptor,
            RawStateFactory rawFactory,
            TtlTimeProvider timeProvider) throws Exception {
        Objects.requireNonNull(rawFactory, "rawFactory");
        StateTtlConfig config = descriptor.getTtlConfig();
        if (!config.isEnabled()) {
            return rawFactory.createRawState(namespaceSerializer, descriptor);
        }
        Objects.requireNonNull(timeProvider, "timeProvider");
        String name = descriptor.getName();
        Object state = switch (descriptor.getType()) {
            case VALUE -> value(namespaceSerializer, (ValueStateDescriptor<Object>) descriptor, rawFactory, config,
                    timeProvider);
            case LIST -> list(namespaceSerializer, (ListStateDescriptor<Object>) descriptor, rawFactory, config,
                    timeProvider);
            case MAP -> map(namespaceSerializer, (MapStateDescriptor<Object, Object>) descriptor, rawFactory, config,
                    timeProvider);
            case REDUCING -> reducing(namespaceSerializer, (ReducingStateDescriptor<Object>) descriptor, rawFactory,
                    config, timeProvider);
            case AGGREGATING -> aggregating(namespaceSerializer,
                    (AggregatingStateDescriptor<Object, Object, Object>) descriptor, rawFactory, config, timeProvider);
        };
        return (S) Objects.requireNonNull(state, () -> "no state created for '" + name + "'");
    }

    /** The raw state as the Internal interface the decorator needs; fails naming the state if it is not. */
    @SuppressWarnings("unchecked")
    private static <R> R internal(State raw, Class<?> internalType, StateDescriptor<?, ?> descriptor) {
        if (!internalType.isInstance(raw)) {
            throw new IllegalStateException("The store created " + (raw == null ? "null" : raw.getClass().getName())
                    + " for state '" + descriptor.getName() + "', which does not implement "
                    + internalType.getSimpleName() + ": time-to-live needs the store's states to implement the"
                    + " Internal*State interfaces");
        }
        return (R) raw;
    }

    private static <N, T> Object value(TypeSerializer<N> ns, ValueStateDescriptor<T> d, RawStateFactory factory,
            StateTtlConfig config, TtlTimeProvider clock) throws Exception {
        ValueStateDescriptor<TtlValue<T>> wrapped =
                new ValueStateDescriptor<>(d.getName(), new TtlValueSerializer<>(d.getSerializer()));
        wrapped.enableTimeToLive(config);
        InternalValueState<Object, N, TtlValue<T>> raw = internal(factory.createRawState(ns, wrapped), InternalValueState.class, d);
        return new TtlValueState<>(raw, config, clock, d.getSerializer());
    }

    private static <N, T> Object list(TypeSerializer<N> ns, ListStateDescriptor<T> d, RawStateFactory factory,
            StateTtlConfig config, TtlTimeProvider clock) throws Exception {
        ListStateDescriptor<TtlValue<T>> wrapped =
                new ListStateDescriptor<>(d.getName(), new TtlValueSerializer<>(d.getElementSerializer()));
        wrapped.enableTimeToLive(config);
        InternalListState<Object, N, TtlValue<T>> raw = internal(factory.createRawState(ns, wrapped), InternalListState.class, d);
        return new TtlListState<>(raw, config, clock, d.getSerializer());
    }

    private static <N, UK, UV> Object map(TypeSerializer<N> ns, MapStateDescriptor<UK, UV> d, RawStateFactory factory,
            StateTtlConfig config, TtlTimeProvider clock) throws Exception {
        MapStateDescriptor<UK, TtlValue<UV>> wrapped = new MapStateDescriptor<>(d.getName(), d.getKeySerializer(),
                new TtlValueSerializer<>(d.getValueSerializer()));
        wrapped.enableTimeToLive(config);
        InternalMapState<Object, N, UK, TtlValue<UV>> raw = internal(factory.createRawState(ns, wrapped), InternalMapState.class, d);
        return new TtlMapState<>(raw, config, clock, d.getSerializer());
    }

    private static <N, T> Object reducing(TypeSerializer<N> ns, ReducingStateDescriptor<T> d, RawStateFactory factory,
            StateTtlConfig config, TtlTimeProvider clock) throws Exception {
        ReducingStateDescriptor<TtlValue<T>> wrapped = new ReducingStateDescriptor<>(d.getName(),
                new TtlReduceFunction<>(d.getReduceFunction(), config, clock), new TtlValueSerializer<>(d.getSerializer()));
        wrapped.enableTimeToLive(config);
        InternalReducingState<Object, N, TtlValue<T>> raw =
                internal(factory.createRawState(ns, wrapped), InternalReducingState.class, d);
        return new TtlReducingState<>(raw, config, clock, d.getSerializer());
    }

    private static <N, IN, ACC, OUT> Object aggregating(TypeSerializer<N> ns, AggregatingStateDescriptor<IN, ACC, OUT> d,
            RawStateFactory factory, StateTtlConfig config, TtlTimeProvider clock) throws Exception {
        AggregatingStateDescriptor<IN, TtlValue<ACC>, OUT> wrapped = new AggregatingStateDescriptor<>(d.getName(),
                new TtlAggregateFunction<>(d.getAggregateFunction(), config, clock),
                new TtlValueSerializer<>(d.getSerializer()));
        wrapped.enableTimeToLive(config);
        InternalAggregatingState<Object, N, IN, TtlValue<ACC>, OUT> raw =
                internal(factory.createRawState(ns, wrapped), InternalAggregatingState.class, d);
        return new TtlAggregatingState<>(raw, config, clock, d.getSerializer(), d.getAggregateFunction());
    }
}
