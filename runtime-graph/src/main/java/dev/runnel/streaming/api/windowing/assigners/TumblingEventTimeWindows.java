package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.EventTimeTrigger;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import java.time.Duration;
import java.util.Collection;
import java.util.List;

/** Fixed-size, non-overlapping event-time windows aligned to the epoch (plus an optional offset). */
public class TumblingEventTimeWindows extends WindowAssigner<Object, TimeWindow> {

    private static final long serialVersionUID = 1L;

    private final long size;
    private final long offset;
    /** The list returned last, reused for the next record of the same window (see {@link RecentWindows}). */
    private transient List<TimeWindow> last;

    protected TumblingEventTimeWindows(long size, long offset) {
        if (size <= 0 || Math.abs(offset) >= size) {
            throw new IllegalArgumentException("Tumbling windows need size > 0 and |offset| < size; got size "
                    + size + " ms, offset " + offset + " ms");
        }
        this.size = size;
        this.offset = offset;
    }

    public static TumblingEventTimeWindows of(Duration size) {
        return new TumblingEventTimeWindows(size.toMillis(), 0);
    }

    public static TumblingEventTimeWindows of(Duration size, Duration offset) {
        return new TumblingEventTimeWindows(size.toMillis(), offset.toMillis() % size.toMillis());
    }

    public static TumblingEventTimeWindows of(Time size) {
        return of(size.toDuration());
    }

    public static TumblingEventTimeWindows of(Time size, Time offset) {
        return of(size.toDuration(), offset.toDuration());
    }

    @Override
    public Collection<TimeWindow> assignWindows(Object element, long timestamp, WindowAssignerContext context) {
        if (timestamp == Long.MIN_VALUE) {
            throw new IllegalStateException("Record has no timestamp (Long.MIN_VALUE); event-time windows need one. "
                    + "Did you forget assignTimestampsAndWatermarks() or a watermark strategy on the source?");
        }
        long start = TimeWindow.getWindowStartWithOffset(timestamp, offset, size);
        List<TimeWindow> windows = RecentWindows.reuseOrCreate(last, start, size);
        last = windows;
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
        return "TumblingEventTimeWindows(" + size + ")";
    }
}
