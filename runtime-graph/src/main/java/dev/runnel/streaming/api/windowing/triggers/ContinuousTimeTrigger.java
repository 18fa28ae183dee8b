package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.windowing.windows.Window;

/**
 * What the continuous triggers share: the next periodic firing time of each window, kept in window
 * state (merged windows keep the earliest), aligned to the interval and capped at the window's max
 * timestamp, with a timer in the trigger's time domain.
 */
abstract class ContinuousTimeTrigger<W extends Window> extends Trigger<Object, W> {

    private static final long serialVersionUID = 1L;

    private final long interval;
    private final ReducingStateDescriptor<Long> stateDesc =
            new ReducingStateDescriptor<>("fire-time", (a, b) -> Math.min(a, b), Types.LONG);

    ContinuousTimeTrigger(long interval) {
        if (interval <= 0) {
            throw new IllegalArgumentException("The interval must be positive, was " + interval + " ms");
        }
        this.interval = interval;
    }

    public long getInterval() {
        return interval;
    }

    abstract void registerTimer(TriggerContext ctx, long time);

    abstract void deleteTimer(TriggerContext ctx, long time);

    /** Schedules the first periodic firing after {@code time} unless one is scheduled. */
    void scheduleFirstFiring(long time, W window, TriggerContext ctx) throws Exception {
        ReducingState<Long> fireTime = ctx.getPartitionedState(stateDesc);
        if (fireTime.get() == null) {
            scheduleAfter(time - (time % interval), window, ctx, fireTime);
        }
    }

    /** FIRE if {@code time} is the scheduled firing time (and schedules the next one), else CONTINUE. */
    TriggerResult fireIfScheduled(long time, W window, TriggerContext ctx) throws Exception {
        ReducingState<Long> fireTime = ctx.getPartitionedState(stateDesc);
        Long next = fireTime.get();
        if (next == null || next != time) {
            return TriggerResult.CONTINUE;
        }
        fireTime.clear();
        scheduleAfter(time, window, ctx, fireTime);
        return TriggerResult.FIRE;
    }

    private void scheduleAfter(long time, W window, TriggerContext ctx, ReducingState<Long> fireTime) throws Exception {
        long next = Math.min(time + interval, window.maxTimestamp());
        fireTime.add(next);
        registerTimer(ctx, next);
    }

    @Override
    public void clear(W window, TriggerContext ctx) throws Exception {
        ReducingState<Long> fireTime = ctx.getPartitionedState(stateDesc);
        Long next = fireTime.get();
        if (next != null) {
            deleteTimer(ctx, next);
            fireTime.clear();
        }
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(W window, OnMergeContext ctx) throws Exception {
        ctx.mergePartitionedState(stateDesc);
        Long next = ctx.getPartitionedState(stateDesc).get();
        if (next != null) {
            registerTimer(ctx, next);
        }
    }

    @Override
    public String toString() {
        return getClass().getSimpleName() + "(" + interval + ")";
    }
}
