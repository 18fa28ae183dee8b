package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReadOnlyBroadcastState;
import dev.runnel.util.OutputTag;

/**
 * What {@link BroadcastProcessFunction} and {@link KeyedBroadcastProcessFunction} share: the contexts of the
 * two sides of a broadcast connection. The broadcast side ({@link Context}) may change the broadcast state;
 * the other side ({@link ReadOnlyContext}) may only read it. Users extend one of the two subclasses.
 *
 * <p>Called on the task thread only; a context is valid only during the call it is passed to.
 */
public abstract class BaseBroadcastProcessFunction extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    /** What both sides can see. */
    abstract class BaseContext {

        /** The timestamp of the element being processed, or null if it has none. */
        public abstract Long timestamp();

        /** Emits {@code value} to side output {@code outputTag}, with the element's timestamp. */
        public abstract <X> void output(OutputTag<X> outputTag, X value);

        public abstract long currentProcessingTime();

        public abstract long currentWatermark();
    }

    /** The broadcast side's context: read-write broadcast state. */
    public abstract class Context extends BaseContext {

        /**
         * The broadcast state of {@code stateDescriptor}, which must be one of those passed to
         * {@code broadcast(...)}.
         */
        public abstract <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor);
    }

    /** The non-broadcast side's context: read-only broadcast state. */
    public abstract class ReadOnlyContext extends BaseContext {

        /** A read-only view of the broadcast state of {@code stateDescriptor}. */
        public abstract <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor);
    }
}
