package dev.runnel.streaming.api.windowing.evictors;

import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.TimestampedValue;
import java.time.Duration;
import java.util.Iterator;

/**
 * Keeps the elements of the last {@code windowSize} milliseconds of a window, measured back from the
 * largest element timestamp in it: elements with a timestamp at or before {@code max - windowSize}
 * are evicted. Does nothing if the elements have no timestamps (judged by the first one). Evicts
 * before the window function unless {@code doEvictAfter} is set.
 *
 * @param <W> the window type
 */
public class TimeEvictor<W extends Window> implements Evictor<Object, W> {

    private static final long serialVersionUID = 1L;

    private final long windowSize;
    private final boolean doEvictAfter;

    public TimeEvictor(long windowSize) {
        this(windowSize, false);
    }

    public TimeEvictor(long windowSize, boolean doEvictAfter) {
        this.windowSize = windowSize;
        this.doEvictAfter = doEvictAfter;
    }

    public static <W extends Window> TimeEvictor<W> of(Time windowSize) {
        return new TimeEvictor<>(windowSize.toMilliseconds());
    }

    public static <W extends Window> TimeEvictor<W> of(Time windowSize, boolean doEvictAfter) {
        return new TimeEvictor<>(windowSize.toMilliseconds(), doEvictAfter);
    }

    public static <W extends Window> TimeEvictor<W> of(Duration windowSize) {
        return new TimeEvictor<>(windowSize.toMillis());
    }

    public static <W extends Window> TimeEvictor<W> of(Duration windowSize, boolean doEvictAfter) {
        return new TimeEvictor<>(windowSize.toMillis(), doEvictAfter);
    }

    public long getWindowSize() {
        return windowSize;
    }

    @Override
    public void evictBefore(Iterable<TimestampedValue<Object>> elements, int size, W window, EvictorContext ctx) {
        if (!doEvictAfter) {
            evict(elements);
        }
    }

    @Override
    public void evictAfter(Iterable<TimestampedValue<Object>> elements, int size, W window, EvictorContext ctx) {
        if (doEvictAfter) {
            evict(elements);
        }
    }

    private void evict(Iterable<TimestampedValue<Object>> elements) {
        Iterator<TimestampedValue<Object>> first = elements.iterator();
        if (!first.hasNext() || !first.next().hasTimestamp()) {
            return;
        }
        long max = Long.MIN_VALUE;
        for (TimestampedValue<Object> element : elements) {
            max = Math.max(max, element.getTimestamp());
        }
        long cutoff = max - windowSize;
        for (Iterator<TimestampedValue<Object>> it = elements.iterator(); it.hasNext(); ) {
            if (it.next().getTimestamp() <= cutoff) {
                it.remove();
            }
        }
    }

    @Override
    public String toString() {
        return "TimeEvictor(" + windowSize + ")";
    }
}
