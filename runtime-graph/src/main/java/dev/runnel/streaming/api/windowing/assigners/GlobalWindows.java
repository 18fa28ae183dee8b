package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.triggers.TriggerResult;
import dev.runnel.streaming.api.windowing.windows.GlobalWindow;
import java.util.Collection;
import java.util.Collections;

/**
 * Puts every element of a key into the one {@link GlobalWindow}, which never ends. What makes it fire
 * is the trigger (and what it keeps, an evictor): count windows are global windows with a count
 * trigger. By default it never fires ({@link NeverTrigger}); {@link #createWithEndOfStreamTrigger()}
 * fires once, at the end of a bounded input.
 *
 * <p>Global windows are not event-time windows: nothing is late, and their state is never cleaned up
 * by time, only by purging triggers.
 */
public class GlobalWindows extends WindowAssigner<Object, GlobalWindow> {

    private static final long serialVersionUID = 1L;

    private final Trigger<Object, GlobalWindow> defaultTrigger;

    private GlobalWindows(Trigger<Object, GlobalWindow> defaultTrigger) {
        this.defaultTrigger = defaultTrigger;
    }

    /** Global windows that fire only when the trigger set with {@code trigger(...)} says so. */
    public static GlobalWindows create() {
        return new GlobalWindows(new NeverTrigger());
    }

    /** Global windows that fire once, when the input ends (the watermark reaches its maximum). */
    public static GlobalWindows createWithEndOfStreamTrigger() {
        return new GlobalWindows(new EndOfStreamTrigger());
    }

    @Override
    public Collection<GlobalWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        return Collections.singletonList(GlobalWindow.get());
    }

    @Override
    public Trigger<Object, GlobalWindow> getDefaultTrigger() {
        return defaultTrigger;
    }

    @Override
    public TypeSerializer<GlobalWindow> getWindowSerializer(ExecutionConfig executionConfig) {
        return new GlobalWindow.Serializer();
    }

    @Override
    public boolean isEventTime() {
        return false;
    }

    @Override
    public String toString() {
        return "GlobalWindows()";
    }

    /** The default trigger of {@link #create()}: never fires. */
    public static class NeverTrigger extends Trigger<Object, GlobalWindow> {

        private static final long serialVersionUID = 1L;

        @Override
        public TriggerResult onElement(Object element, long timestamp, GlobalWindow window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, GlobalWindow window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, GlobalWindow window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(GlobalWindow window, TriggerContext ctx) {}

        @Override
        public void onMerge(GlobalWindow window, OnMergeContext ctx) {}
    }

    /** The default trigger of {@link #createWithEndOfStreamTrigger()}: fires when event time reaches its end. */
    public static class EndOfStreamTrigger extends Trigger<Object, GlobalWindow> {

        private static final long serialVersionUID = 1L;

        @Override
        public TriggerResult onElement(Object element, long timestamp, GlobalWindow window, TriggerContext ctx) {
            ctx.registerEventTimeTimer(window.maxTimestamp());
            return TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onEventTime(long time, GlobalWindow window, TriggerContext ctx) {
            return time == window.maxTimestamp() ? TriggerResult.FIRE : TriggerResult.CONTINUE;
        }

        @Override
        public TriggerResult onProcessingTime(long time, GlobalWindow window, TriggerContext ctx) {
            return TriggerResult.CONTINUE;
        }

        @Override
        public void clear(GlobalWindow window, TriggerContext ctx) {
            ctx.deleteEventTimeTimer(window.maxTimestamp());
        }

        @Override
        public void onMerge(GlobalWindow window, OnMergeContext ctx) {}
    }
}
