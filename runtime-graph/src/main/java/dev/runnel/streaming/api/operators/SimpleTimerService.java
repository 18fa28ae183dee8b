package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.streaming.api.TimerService;
import java.util.Objects;

/**
 * The {@link TimerService} a keyed process function sees: the operator's internal timer service
 * with every timer in the {@link VoidNamespace}, scoped to the key current when it is called.
 *
 * <p>Task thread only, like the service it wraps (which must not be null).
 */
public final class SimpleTimerService implements TimerService {

    private final InternalTimerService<VoidNamespace> timers;

    public SimpleTimerService(InternalTimerService<VoidNamespace> timers) {
        this.timers = Objects.requireNonNull(timers, "timers");
    }

    @Override
    public long currentProcessingTime() {
        return timers.currentProcessingTime();
    }

    @Override
    public long currentWatermark() {
        return timers.currentWatermark();
    }

    @Override
    public void registerProcessingTimeTimer(long time) {
        timers.registerProcessingTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void registerEventTimeTimer(long time) {
        timers.registerEventTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void deleteProcessingTimeTimer(long time) {
        timers.deleteProcessingTimeTimer(VoidNamespace.INSTANCE, time);
    }

    @Override
    public void deleteEventTimeTimer(long time) {
        timers.deleteEventTimeTimer(VoidNamespace.INSTANCE, time);
    }
}
