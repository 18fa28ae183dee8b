package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.time.Duration;

/**
 * Fires a window every {@code interval} of processing time (the task's wall clock) once it has
 * elements. The firing times are aligned to multiples of the interval and capped at the window's max
 * timestamp, so a time window also fires at its end. Does not purge: wrap it in a
 * {@link PurgingTrigger} to emit increments.
 *
 * @param <W> the window type
 */
public class ContinuousProcessingTimeTrigger<W extends Window> extends ContinuousTimeTrigger<W> {

    private static final long serialVersionUID = 1L;

    private ContinuousProcessingTimeTrigger(long interval) {
        super(interval);
    }

    public static <W extends Window> ContinuousProcessingTimeTrigger<W> of(Time interval) {
        return new ContinuousProcessingTimeTrigger<>(interval.toMilliseconds());
    }

    public static <W extends Window> ContinuousProcessingTimeTrigger<W> of(Duration interval) {
        return new ContinuousProcessingTimeTrigger<>(interval.toMillis());
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, W window, TriggerContext ctx) throws Exception {
        scheduleFirstFiring(ctx.getCurrentProcessingTime(), window, ctx);
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) throws Exception {
        return fireIfScheduled(time, window, ctx);
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    void registerTimer(TriggerContext ctx, long time) {
        ctx.registerProcessingTimeTimer(time);
    }

    @Override
    void deleteTimer(TriggerContext ctx, long time) {
        ctx.deleteProcessingTimeTimer(time);
    }
}
