package dev.runnel.streaming.api.windowing.evictors;

import dev.runnel.streaming.api.functions.windowing.delta.DeltaFunction;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.streaming.runtime.operators.windowing.TimestampedValue;
import java.util.Iterator;

/**
 * Evicts every element whose delta to the window's last element is at least {@code threshold}
 * ({@code deltaFunction.getDelta(element, last) >= threshold}). Evicts before the window function
 * unless {@code doEvictAfter} is set.
 *
 * @param <T> the type of the elements
 * @param <W> the window type
 */
public class DeltaEvictor<T, W extends Window> implements Evictor<T, W> {

    private static final long serialVersionUID = 1L;

    private final DeltaFunction<T> deltaFunction;
    private final double threshold;
    private final boolean doEvictAfter;

    private DeltaEvictor(double threshold, DeltaFunction<T> deltaFunction, boolean doEvictAfter) {
        this.deltaFunction = deltaFunction;
        this.threshold = threshold;
        this.doEvictAfter = doEvictAfter;
    }

    public static <T, W extends Window> DeltaEvictor<T, W> of(double threshold, DeltaFunction<T> deltaFunction) {
        return new DeltaEvictor<>(threshold, deltaFunction, false);
    }

    public static <T, W extends Window> DeltaEvictor<T, W> of(double threshold, DeltaFunction<T> deltaFunction,
            boolean doEvictAfter) {
        return new DeltaEvictor<>(threshold, deltaFunction, doEvictAfter);
    }

    @Override
    public void evictBefore(Iterable<TimestampedValue<T>> elements, int size, W window, EvictorContext ctx) {
        if (!doEvictAfter) {
            evict(elements);
        }
    }

    @Override
    public void evictAfter(Iterable<TimestampedValue<T>> elements, int size, W window, EvictorContext ctx) {
        if (doEvictAfter) {
            evict(elements);
        }
    }

    private void evict(Iterable<TimestampedValue<T>> elements) {
        TimestampedValue<T> last = null;
        for (TimestampedValue<T> element : elements) {
            last = element;
        }
        if (last == null) {
            return;
        }
        for (Iterator<TimestampedValue<T>> it = elements.iterator(); it.hasNext(); ) {
            if (deltaFunction.getDelta(it.next().getValue(), last.getValue()) >= threshold) {
                it.remove();
            }
        }
    }

    @Override
    public String toString() {
        return "DeltaEvictor(" + deltaFunction + ", " + threshold + ")";
    }
}
