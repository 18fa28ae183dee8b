package dev.runnel.streaming.api.windowing.evictors;

import dev.runnel.metrics.MetricGroup;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.TimestampedValue;
import java.io.Serializable;

/**
 * Removes elements from a window when it fires: before the window function sees them, after it has
 * (what stays is there when the window fires again), or both. A window with an evictor keeps all its
 * elements, so it cannot pre-aggregate.
 *
 * <p>Evict by removing through the iterator of {@code elements}. One instance serves all keys and
 * windows; it is called on the task thread.
 *
 * @param <T> the type of the elements
 * @param <W> the window type
 */
public interface Evictor<T, W extends Window> extends Serializable {

    /**
     * Called when the window fires, before the window function.
     *
     * @param elements the window's elements, in arrival order, with their timestamps
     * @param size the number of elements
     */
    void evictBefore(Iterable<TimestampedValue<T>> elements, int size, W window, EvictorContext evictorContext);

    /** Called after the window function, with what {@link #evictBefore} left. */
    void evictAfter(Iterable<TimestampedValue<T>> elements, int size, W window, EvictorContext evictorContext);

    /** What an evictor can ask about time and where it can report metrics. */
    interface EvictorContext {

        long getCurrentProcessingTime();

        MetricGroup getMetricGroup();

        long getCurrentWatermark();
    }
}
