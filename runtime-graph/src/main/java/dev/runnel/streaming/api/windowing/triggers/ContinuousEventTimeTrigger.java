package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.time.Duration;

/**
 * Fires a window every {@code interval} of event time while it is open, and once more when the
 * watermark passes its end. The firing times are aligned to multiples of the interval (from the
 * first element's timestamp) and capped at the window's max timestamp. Does not purge: wrap it in a
 * {@link PurgingTrigger} to emit increments.
 *
 * @param <W> the window type
 */
public class ContinuousEventTimeTrigger<W extends Window> extends ContinuousTimeTrigger<W> {

    private static final long serialVersionUID = 1L;

    private ContinuousEventTimeTrigger(long interval) {
        super(interval);
    }

    public static <W extends Window> ContinuousEventTimeTrigger<W> of(Time interval) {
        return new ContinuousEventTimeTrigger<>(interval.toMilliseconds());
    }

    public static <W extends Window> ContinuousEventTimeTrigger<W> of(Duration interval) {
        return new ContinuousEventTimeTrigger<>(interval.toMillis());
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, W window, TriggerContext ctx) throws Exception {
        if (window.maxTimestamp() <= ctx.getCurrentWatermark()) {
            return TriggerResult.FIRE;
        }
        ctx.registerEventTimeTimer(window.maxTimestamp());
        scheduleFirstFiring(timestamp, window, ctx);
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) throws Exception {
        return time == window.maxTimestamp() ? TriggerResult.FIRE : fireIfScheduled(time, window, ctx);
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    void registerTimer(TriggerContext ctx, long time) {
        ctx.registerEventTimeTimer(time);
    }

    @Override
    void deleteTimer(TriggerContext ctx, long time) {
        ctx.deleteEventTimeTimer(time);
    }
}
