package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.ProcessingTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.Collection;
import java.util.Collections;

/** Sessions in processing time: a key's session closes after {@code gap} of wall-clock time without records. */
public class ProcessingTimeSessionWindows extends MergingWindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long gap;

    protected ProcessingTimeSessionWindows(long gap) {
        if (gap <= 0) {
            throw new IllegalArgumentException("A session gap must be positive, was " + gap + " ms");
        }
        this.gap = gap;
    }

    public static ProcessingTimeSessionWindows withGap(Duration gap) {
        return new ProcessingTimeSessionWindows(gap.toMillis());
    }

    public static ProcessingTimeSessionWindows withGap(Time gap) {
        return withGap(gap.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        long now = context.getCurrentProcessingTime();
        return Collections.singletonList(new TimeWindow(now, now + gap));
    }

    @Override
    public void mergeWindows(Collection<TimeWindow> windows, MergeCallback<TimeWindow> callback) {
        TimeWindow.mergeWindows(windows, callback);
    }

    @Override
    public Trigger<Object, TimeWindow> getDefaultTrigger() {
        return ProcessingTimeTrigger.create();
    }

    @Override
    public TypeSerializer<TimeWindow> getWindowSerializer(ExecutionConfig executionConfig) {
        return TimeWindow.Serializer.INSTANCE;
    }

    @Override
    public boolean isEventTime() {
        return false;
    }
}
