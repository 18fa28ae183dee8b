package dev.runnel.streaming.runtime.source;

import dev.runnel.core.io.InputStatus;
import java.util.concurrent.CompletableFuture;

/**
 * The head operator of a source task, as the task drives it: the task thread polls it for one piece of
 * input at a time and, when it has nothing, waits for its availability future. Implemented by the
 * FLIP-27 {@link SourceOperator} and the legacy {@code StreamSource}. Task thread only.
 */
public interface PollableSource {

    /** Emits at most one record (or watermark) downstream; END_OF_INPUT once the input has ended. */
    InputStatus emitNext() throws Exception;

    /** Completes when {@link #emitNext()} may find something again. */
    CompletableFuture<Void> isAvailable();

    /**
     * Emits the maximum watermark now, as at the end of input: stop-with-savepoint with
     * {@code advanceToEndOfEventTime} fires every event-time timer and window before its barrier.
     */
    void emitMaxWatermark() throws Exception;

    /**
     * While a stop-with-savepoint is pending the source emits nothing, watermarks included: nothing may follow
     * the savepoint's barrier. Resumed when the savepoint is given up.
     */
    default void setSuspended(boolean suspended) {}
}
