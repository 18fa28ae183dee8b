package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.time.Duration;

/**
 * Adds a processing-time timeout to any trigger: the window fires when the nested trigger fires, or
 * {@code timeout} after the first element arrived (after the latest one, with
 * {@code resetTimerOnNewRecord}), whichever comes first. On the timeout the window fires (and purges
 * if the nested trigger's answer to the timer says so); with {@code shouldClearOnTimeout} the
 * trigger's state, nested trigger included, is cleared too.
 *
 * @param <T> the type of the elements
 * @param <W> the window type
 */
public class ProcessingTimeoutTrigger<T, W extends Window> extends Trigger<T, W> {

    private static final long serialVersionUID = 1L;

    private final Trigger<T, W> nestedTrigger;
    private final long interval;
    private final boolean resetTimerOnNewRecord;
    private final boolean shouldClearOnTimeout;
    private final ValueStateDescriptor<Long> timeoutStateDesc = new ValueStateDescriptor<>("timeout", Types.LONG);

    private ProcessingTimeoutTrigger(Trigger<T, W> nestedTrigger, long interval, boolean resetTimerOnNewRecord,
            boolean shouldClearOnTimeout) {
        this.nestedTrigger = java.util.Objects.requireNonNull(nestedTrigger, "nestedTrigger");
        this.interval = interval;
        this.resetTimerOnNewRecord = resetTimerOnNewRecord;
        this.shouldClearOnTimeout = shouldClearOnTimeout;
    }

    /** Times out {@code timeout} after the first element; clears on timeout. */
    public static <T, W extends Window> ProcessingTimeoutTrigger<T, W> of(Trigger<T, W> nestedTrigger, Duration timeout) {
        return new ProcessingTimeoutTrigger<>(nestedTrigger, timeout.toMillis(), false, true);
    }

    public static <T, W extends Window> ProcessingTimeoutTrigger<T, W> of(Trigger<T, W> nestedTrigger, Duration timeout,
            boolean resetTimerOnNewRecord, boolean shouldClearOnTimeout) {
        return new ProcessingTimeoutTrigger<>(nestedTrigger, timeout.toMillis(), resetTimerOnNewRecord,
                shouldClearOnTimeout);
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, W window, TriggerContext ctx) throws Exception {
        TriggerResult result = nestedTrigger.onElement(element, timestamp, window, ctx);
        if (result.isFire()) {
            clear(window, ctx);
            return result;
        }
        ValueState<Long> timeout = ctx.getPartitionedState(timeoutStateDesc);
        Long current = timeout.value();
        if (current != null && resetTimerOnNewRecord) {
            ctx.deleteProcessingTimeTimer(current);
            current = null;
        }
        if (current == null) {
            long next = ctx.getCurrentProcessingTime() + interval;
            timeout.update(next);
            ctx.registerProcessingTimeTimer(next);
        }
        return result;
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) throws Exception {
        return onTimeout(nestedTrigger.onProcessingTime(time, window, ctx), window, ctx);
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) throws Exception {
        return onTimeout(nestedTrigger.onEventTime(time, window, ctx), window, ctx);
    }

    private TriggerResult onTimeout(TriggerResult nested, W window, TriggerContext ctx) throws Exception {
        if (shouldClearOnTimeout) {
            clear(window, ctx);
        }
        return nested.isPurge() ? TriggerResult.FIRE_AND_PURGE : TriggerResult.FIRE;
    }

    @Override
    public void clear(W window, TriggerContext ctx) throws Exception {
        ValueState<Long> timeout = ctx.getPartitionedState(timeoutStateDesc);
        Long current = timeout.value();
        if (current != null) {
            ctx.deleteProcessingTimeTimer(current);
            timeout.clear();
        }
        nestedTrigger.clear(window, ctx);
    }

    @Override
    public String toString() {
        return "TimeoutTrigger(" + nestedTrigger + ")";
    }
}
