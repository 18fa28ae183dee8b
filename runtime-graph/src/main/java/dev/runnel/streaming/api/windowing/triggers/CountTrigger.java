package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.api.common.state.ReducingState;
import dev.runnel.api.common.state.ReducingStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.windowing.windows.Window;

/** Fires a window every {@code maxCount} elements (and resets the count). */
public final class CountTrigger<W extends Window> extends Trigger<Object, W> {

    private static final long serialVersionUID = 1L;

    private final long maxCount;
    private final ReducingStateDescriptor<Long> countDescriptor =
            new ReducingStateDescriptor<>("count", (a, b) -> a + b, Types.LONG);

    private CountTrigger(long maxCount) {
        if (maxCount <= 0) {
            throw new IllegalArgumentException("CountTrigger needs a positive count, was " + maxCount);
        }
        this.maxCount = maxCount;
    }

    public static <W extends Window> CountTrigger<W> of(long maxCount) {
        return new CountTrigger<>(maxCount);
    }

    @Override
    public TriggerResult onElement(Object element, long timestamp, W window, TriggerContext ctx) throws Exception {
        ReducingState<Long> count = ctx.getPartitionedState(countDescriptor);
        count.add(1L);
        if (count.get() >= maxCount) {
            count.clear();
            return TriggerResult.FIRE;
        }
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onEventTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) {
        return TriggerResult.CONTINUE;
    }

    @Override
    public void clear(W window, TriggerContext ctx) {
        ctx.getPartitionedState(countDescriptor).clear();
    }

    @Override
    public boolean canMerge() {
        return true;
    }

    @Override
    public void onMerge(W window, OnMergeContext ctx) {
        ctx.mergePartitionedState(countDescriptor);
    }

    @Override
    public String toString() {
        return "CountTrigger(" + maxCount + ")";
    }
}
