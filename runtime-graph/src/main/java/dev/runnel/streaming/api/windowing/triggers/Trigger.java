package dev.runnel.streaming.api.windowing.triggers;

import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.io.Serializable;

/**
 * Decides when a window is evaluated: on each element, and when a timer it registered fires. One
 * instance serves all keys and windows; per-window data belongs in state from the context.
 */
public abstract class Trigger<T, W extends Window> implements Serializable {

    private static final long serialVersionUID = 1L;

    public abstract TriggerResult onElement(T element, long timestamp, W window, TriggerContext ctx) throws Exception;

    public abstract TriggerResult onProcessingTime(long time, W window, TriggerContext ctx) throws Exception;

    public abstract TriggerResult onEventTime(long time, W window, TriggerContext ctx) throws Exception;

    /** Whether this trigger supports merging windows (sessions). */
    public boolean canMerge() {
        return false;
    }

    /** The windows merged into {@code window}; re-register what the merged ones had registered. */
    public void onMerge(W window, OnMergeContext ctx) throws Exception {
        throw new UnsupportedOperationException("Trigger " + getClass().getSimpleName() + " does not support merging windows");
    }

    /** The window is gone: delete its timers and state. */
    public abstract void clear(W window, TriggerContext ctx) throws Exception;

    /** What a trigger can do for the current key and window. */
    public interface TriggerContext {

        long getCurrentProcessingTime();

        MetricGroup getMetricGroup();

        long getCurrentWatermark();

        void registerProcessingTimeTimer(long time);

        void registerEventTimeTimer(long time);

        void deleteProcessingTimeTimer(long time);

        void deleteEventTimeTimer(long time);

        /** Trigger state of the current key and window. */
        <S extends State> S getPartitionedState(StateDescriptor<S, ?> stateDescriptor);
    }

    /** The context during {@link #onMerge}. */
    public interface OnMergeContext extends TriggerContext {

        /** Merges the merged windows' state of {@code stateDescriptor} into the new window's. */
        <S extends dev.runnel.api.common.state.MergingState<?, ?>> void mergePartitionedState(
                StateDescriptor<S, ?> stateDescriptor);
    }
}
