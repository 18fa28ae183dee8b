package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.streaming.api.windowing.windows.TimeWindow;

/** Fires a window once the watermark passes its end; the default of event-time windows. */
public final class EventTimeTrigger extends Trigger<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private EventTimeTrigger() {}

    public static EventTimeTrigger create() {
        return new EventTimeTrigger();
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, TimeWindow window, TriggerContext ctx) {
        if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
            // the window is already complete (allowed lateness): fire right away
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, TimeWindow window, TriggerContext ctx) {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, TimeWindow window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public void clear(TimeWindow window, TriggerContext ctx) {
        ctx.deleteEventTimeTimer(window.maxTimestamp());
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(TimeWindow window, OnMergeContext ctx) {
        long end = window.maxTimestamp();
        if (end > ctx.getCurrentWatermark()) {
            ctx.registerEventTimeTimer(end);
        }
    }

    @Override
    public String toString() {
        return "EventTimeTrigger()";
    }
}
