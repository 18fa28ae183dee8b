package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.ProcessingTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/** Processing-time windows of {@code size} that start every {@code slide}. */
public class SlidingProcessingTimeWindows extends WindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long size;
    private final long slide;

    protected SlidingProcessingTimeWindows(long size, long slide) {
        if (size <= 0 || slide <= 0) {
            throw new IllegalArgumentException("Sliding windows need size > 0 and slide > 0; got size " + size
                    + " ms, slide " + slide + " ms");
        }
        this.size = size;
        this.slide = slide;
    }

    public static SlidingProcessingTimeWindows of(Duration size, Duration slide) {
        return new SlidingProcessingTimeWindows(size.toMillis(), slide.toMillis());
    }

    public static SlidingProcessingTimeWindows of(Time size, Time slide) {
        return of(size.toDuration(), slide.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        long now = context.getCurrentProcessingTime();
        List<TimeWindow> windows = new ArrayList<>((int) (size / slide) + 1);
        long lastStart = TimeWindow.getWindowStartWithOffset(now, 0, slide);
        for (long start = lastStart; start > now - size; start -= slide) {
            windows.add(new TimeWindow(start, start + size));
        }
        return windows;
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
