package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.EventTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;

/**
 * Sessions in event time: each record opens the window {@code [t, t + gap)}, and windows of a key
 * that overlap merge, so a session ends after {@code gap} without records.
 */
public class EventTimeSessionWindows extends MergingWindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long gap;

    protected EventTimeSessionWindows(long gap) {
        if (gap <= 0) {
            throw new IllegalArgumentException("A session gap must be positive, was " + gap + " ms");
        }
        this.gap = gap;
    }

    public static EventTimeSessionWindows withGap(Duration gap) {
        return new EventTimeSessionWindows(gap.toMillis());
    }

    public static EventTimeSessionWindows withGap(Time gap) {
        return withGap(gap.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        if (timestamp == Long.MIN_VALUE) {
            throw new IllegalStateException("Record has no timestamp (Long.MIN_VALUE); event-time sessions need one. "
                    + "Did you forget assignTimestampsAndWatermarks() or a watermark strategy on the source?");
        }
        return Collections.singletonList(new TimeWindow(timestamp, timestamp + gap));
    }

    @Override
    public void mergeWindows(Collection<TimeWindow> windows, MergeCallback<TimeWindow> callback) {
        TimeWindow.mergeWindows(windows, callback);
    }

    @Override
    public Trigger<Object, TimeWindow> getDefaultTrigger() {
        return EventTimeTrigger.create();
    }

    @Override
    public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig executionConfig) {
        return TimeWindow.Serializer.INSTANCE;
    }

    @Override
    public boolean isEventTime() {
        return true;
    }

    @Override
    public String toString() {
        return "EventTimeSessionWindows(" + gap + ")";
    }
}
