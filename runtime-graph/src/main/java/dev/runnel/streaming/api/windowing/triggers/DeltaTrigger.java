package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.functions.windowing.delta.DeltaFunction;
import dev.runnel.streaming.api.windowing.windows.Window;

/**
 * Fires when an element is more than {@code threshold} away from the element that fired last (the
 * window's first element, to begin with): {@code deltaFunction.getDelta(last, element) > threshold}.
 * That element becomes the new reference.
 *
 * @param <T> the type of the elements
 * @param <W> the window type
 */
public class DeltaTrigger<T, W extends Window> extends Trigger<T, W> {

    private static final long serialVersionUID = 1L;

    private final DeltaFunction<T> deltaFunction;
    private final double threshold;
    private final ValueStateDescriptor<T> stateDesc;

    private DeltaTrigger(double threshold, DeltaFunction<T> deltaFunction, TypeSerializer<T> stateSerializer) {
        this.deltaFunction = deltaFunction;
        this.threshold = threshold;
        this.stateDesc = new ValueStateDescriptor<>("last-element", stateSerializer);
    }

    /**
     * @param stateSerializer serializes the reference element, e.g.
     *     {@code stream.getType().createSerializer(env.getConfig().getSerializerConfig())}
     */
    public static <T, W extends Window> DeltaTrigger<T, W> of(double threshold, DeltaFunction<T> deltaFunction,
            TypeSerializer<T> stateSerializer) {
        return new DeltaTrigger<>(threshold, deltaFunction, stateSerializer);
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, W window, TriggerContext ctx) throws Exception {
        ValueState<T> last = ctx.getPartitionedState(stateDesc);
        if (last.value() == null) {
            last.update(element);
            return TriggerResult.CONTINUE;
        }
        if (deltaFunction.getDelta(last.value(), element) > threshold) {
            last.update(element);
            return TriggerResult.FIRE;
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public void clear(W window, TriggerContext ctx) {
        ctx.getPartitionedState(stateDesc).clear();
    }

    @Override
    public String toString() {
        return "DeltaTrigger(" + deltaFunction + ", " + threshold + ")";
    }
}
