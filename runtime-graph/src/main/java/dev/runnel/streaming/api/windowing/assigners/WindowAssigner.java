package dev.runnel.streaming.api.windowing.assigners;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.windowing.triggers.Trigger;
import dev.runnel.streaming.api.windowing.windows.Window;
import java.io.Serializable;
import java.util.Collection;

/**
 * Puts each record into zero or more windows, and says when windows fire by default.
 *
 * @param <T> the record type
 * @param <W> the window type
 */
public abstract class WindowAssigner<T, W extends Window> implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The windows {@code element} (with {@code timestamp}) belongs to. */
    public abstract Collection<W> assignWindows(T element, long timestamp, WindowAssignerContext context);

    /** The trigger used unless the user sets one. */
    public abstract Trigger<T, W> getDefaultTrigger();

    public abstract TypeSerializer<W> getWindowSerializer(ExecutionConfig executionConfig);

    /** Whether windows are in event time (fire on watermarks) rather than processing time. */
    public abstract boolean isEventTime();

    /** What an assigner may ask while assigning. */
    public abstract static class WindowAssignerContext {
        public abstract long getCurrentProcessingTime();
    }
}
