package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.ProcessingTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/** Fixed-size, non-overlapping windows of wall-clock time. */
public class TumblingProcessingTimeWindows extends WindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long size;
    private final long offset;
    /** The list returned last, reused for the next record of the same window (see {@link RecentWindows}). */
    private transient List<TimeWindow> last;

    protected TumblingProcessingTimeWindows(long size, long offset) {
        if (size <= 0 || Math.abs(offset) >= size) {
            throw new IllegalArgumentException("Tumbling windows need size > 0 and |offset| < size; got size "
                    + size + " ms, offset " + offset + " ms");
        }
        this.size = size;
        this.offset = offset;
    }

    public static TumblingProcessingTimeWindows of(Duration size) {
        return new TumblingProcessingTimeWindows(size.toMillis(), 0);
    }

    public static TumblingProcessingTimeWindows of(Duration size, Duration offset) {
        return new TumblingProcessingTimeWindows(size.toMillis(), offset.toMillis() % size.toMillis());
    }

    public static TumblingProcessingTimeWindows of(Time size) {
        return of(size.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        long now = context.getCurrentProcessingTime();
        long start = TimeWindow.getWindowStartWithOffset(now, offset, size);
        List<TimeWindow> windows = RecentWindows.reuseOrCreate(last, start, size);
        last = windows;
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

    @Override
    public String toString() {
        return "TumblingProcessingTimeWindows(" + size + ")";
    }
}
