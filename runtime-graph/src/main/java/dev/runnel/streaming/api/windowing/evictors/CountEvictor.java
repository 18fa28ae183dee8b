package dev.runnel.streaming.api.windowing.evictors;

import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.TimestampedValue;
import java.util.Iterator;

/**
 * Keeps at most {@code maxCount} elements in a window: the most recent ones, evicting from the
 * front. Evicts before the window function unless {@code doEvictAfter} is set.
 *
 * @param <W> the window type
 */
public class CountEvictor<W extends Window> implements Evictor<Object, W> {

    private static final long serialVersionUID = 1L;

    private final long maxCount;
    private final boolean doEvictAfter;

    private CountEvictor(long maxCount, boolean doEvictAfter) {
        if (maxCount <= 0) {
            throw new IllegalArgumentException("CountEvictor needs a positive count, was " + maxCount);
        }
        this.maxCount = maxCount;
        this.doEvictAfter = doEvictAfter;
    }

    /** Keeps {@code maxCount} elements; evicts before the window function. */
    public static <W extends Window> CountEvictor<W> of(long maxCount) {
        return new CountEvictor<>(maxCount, false);
    }

    /** Keeps {@code maxCount} elements; evicts after the window function if {@code doEvictAfter}. */
    public static <W extends Window> CountEvictor<W> of(long maxCount, boolean doEvictAfter) {
        return new CountEvictor<>(maxCount, doEvictAfter);
    }

    @Override
    public void evictBefore(Iterable<TimestampedValue<Object>> elements, int size, W window, EvictorContext ctx) {
        if (!doEvictAfter) {
            evict(elements, size);
        }
    }

    @Override
    public void evictAfter(Iterable<TimestampedValue<Object>> elements, int size, W window, EvictorContext ctx) {
        if (doEvictAfter) {
            evict(elements, size);
        }
    }

    private void evict(Iterable<TimestampedValue<Object>> elements, int size) {
        Iterator<TimestampedValue<Object>> iterator = elements.iterator();
        for (long toEvict = size - maxCount; toEvict > 0 && iterator.hasNext(); toEvict--) {
            iterator.next();
            iterator.remove();
        }
    }

    @Override
    public String toString() {
        return "CountEvictor(" + maxCount + ")";
    }
}
