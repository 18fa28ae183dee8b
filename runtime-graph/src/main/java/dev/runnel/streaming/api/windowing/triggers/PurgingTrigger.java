package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.streaming.api.windowing.windows.Window;

/**
 * Turns any trigger into a purging one: whenever the nested trigger fires, the window fires and its
 * contents are dropped ({@code FIRE_AND_PURGE}), so the next firing sees only newer elements.
 *
 * @param <T> the type of the elements
 * @param <W> the window type
 */
public class PurgingTrigger<T, W extends Window> extends Trigger<T, W> {

    private static final long serialVersionUID = 1L;

    private final Trigger<T, W> nestedTrigger;

    private PurgingTrigger(Trigger<T, W> nestedTrigger) {
        this.nestedTrigger = java.util.Objects.requireNonNull(nestedTrigger, "nestedTrigger");
    }

    public static <T, W extends Window> PurgingTrigger<T, W> of(Trigger<T, W> nestedTrigger) {
        return new PurgingTrigger<>(nestedTrigger);
    }

    public Trigger<T, W> getNestedTrigger() {
        return nestedTrigger;
    }

    @Override
    public TriggerResult onElement(T element, long timestamp, W window, TriggerContext ctx) throws Exception {
        return purging(nestedTrigger.onElement(element, timestamp, window, ctx));
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) throws Exception {
        return purging(nestedTrigger.onEventTime(time, window, ctx));
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) throws Exception {
        return purging(nestedTrigger.onProcessingTime(time, window, ctx));
    }

    private static TriggerResult purging(TriggerResult result) {
        return result.isFire() ? TriggerResult.FIRE_AND_PURGE : result;
    }

    @Override
    public void clear(W window, TriggerContext ctx) throws Exception {
        nestedTrigger.clear(window, ctx);
    }

    @Override
    public boolean canMerge() {
        return nestedTrigger.canMerge();
    }

    @Override
    public void onMerge(W window, OnMergeContext ctx) throws Exception {
        nestedTrigger.onMerge(window, ctx);
    }

    @Override
    public String toString() {
        return "PurgingTrigger(" + nestedTrigger + ")";
    }
}
