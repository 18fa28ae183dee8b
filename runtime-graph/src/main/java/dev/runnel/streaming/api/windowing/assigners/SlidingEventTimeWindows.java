package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.EventTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;

/**
 * Event-time windows of {@code size} that start every {@code slide}: a record belongs to
 * {@code size / slide} windows (more precisely, every window whose interval contains it).
 */
public class SlidingEventTimeWindows extends WindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long size;
    private final long slide;
    private final long offset;

    protected SlidingEventTimeWindows(long size, long slide, long offset) {
        if (size <= 0 || slide <= 0 || Math.abs(offset) >= slide) {
            throw new IllegalArgumentException("Sliding windows need size > 0, slide > 0 and |offset| < slide; got "
                    + "size " + size + " ms, slide " + slide + " ms, offset " + offset + " ms");
        }
        this.size = size;
        this.slide = slide;
        this.offset = offset;
    }

    public static SlidingEventTimeWindows of(Duration size, Duration slide) {
        return new SlidingEventTimeWindows(size.toMillis(), slide.toMillis(), 0);
    }

    public static SlidingEventTimeWindows of(Duration size, Duration slide, Duration offset) {
        return new SlidingEventTimeWindows(size.toMillis(), slide.toMillis(), offset.toMillis() % slide.toMillis());
    }

    public static SlidingEventTimeWindows of(Time size, Time slide) {
        return of(size.toDuration(), slide.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        if (timestamp == Long.MIN_VALUE) {
            throw new IllegalStateException("Record has no timestamp (Long.MIN_VALUE); event-time windows need one. "
                    + "Did you forget assignTimestampsAndWatermarks() or a watermark strategy on the source?");
        }
        List<TimeWindow> windows = new ArrayList<>((int) (size / slide) + 1);
        long lastStart = TimeWindow.getWindowStartWithOffset(timestamp, offset, slide);
        for (long start = lastStart; start > timestamp - size; start -= slide) {
            windows.add(new TimeWindow(start, start + size));
        }
        return windows;
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
        return "SlidingEventTimeWindows(" + size + ", " + slide + ")";
    }
}
