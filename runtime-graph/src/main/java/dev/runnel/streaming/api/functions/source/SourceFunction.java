package dev.runnel.streaming.api.functions.source;

import dev.runnel.api.common.functions.Function;
import dev.runnel.streaming.api.watermark.Watermark;
import java.io.Serializable;

/**
 * Flink's legacy source interface (superseded by FLIP-27's {@code Source}, removed in Flink 2): a
 * function whose {@link #run} produces the stream's records until the input ends or the job is
 * cancelled. Added to a job with {@code env.addSource(function)}.
 *
 * <p>Contract, as in Flink: {@link #run} is called once per subtask, on a thread of its own (the
 * "legacy source thread"), and returns when the input ends; {@link #cancel()} is called from another
 * thread when the job is cancelled and must make {@code run} return soon (typically by clearing a
 * volatile {@code running} flag); the source thread is interrupted as well. A function that is not a
 * {@link ParallelSourceFunction} runs with parallelism 1. Such a source is unbounded: it cannot run in
 * BATCH mode.
 *
 * <pre>{@code
 * class Counter implements SourceFunction<Long> {
 *     private volatile boolean running = true;
 *     private long count;
 *
 *     public void run(SourceContext<Long> ctx) {
 *         while (running && count < 1000) {
 *             synchronized (ctx.getCheckpointLock()) {   // record and state change together
 *                 ctx.collect(count);
 *                 count++;
 *             }
 *         }
 *     }
 *
 *     public void cancel() { running = false; }
 * }
 * }</pre>
 *
 * @param <T> the type of the records the source produces
 */
public interface SourceFunction<T> extends Function, Serializable {

    /**
     * Produces records into {@code ctx} until the input ends (return) or {@link #cancel()} is called.
     * Runs on its own thread.
     */
    void run(SourceContext<T> ctx) throws Exception;

    /**
     * Asks {@link #run} to return. Called once, from a thread other than the one running {@code run},
     * when the job is cancelled or fails; the source thread is interrupted afterwards.
     */
    void cancel();

    /**
     * Where a {@link SourceFunction} emits records, timestamps and watermarks. Thread-safe: its methods
     * are meant to be called from the source thread; what they emit reaches the downstream operators on
     * the task thread, in the order it was emitted.
     *
     * @param <T> the record type
     */
    interface SourceContext<T> {

        /** Emits a record without a timestamp. May wait while the task has not yet taken earlier records. */
        void collect(T element);

        /** Emits a record with event timestamp {@code timestamp} (milliseconds). */
        void collectWithTimestamp(T element, long timestamp);

        /**
         * Declares that event time has reached {@code mark}: no record with a timestamp at or below it
         * will follow. Ends idleness.
         */
        void emitWatermark(Watermark mark);

        /**
         * Declares the source idle: it emits nothing for now, so downstream event time does not wait
         * for it. The next record or watermark makes it active again.
         */
        void markAsTemporarilyIdle();

        /**
         * The lock to hold while emitting a record and updating the state that says it was emitted
         * (e.g. an offset), so that a checkpoint sees both or neither. Collect first, then update state,
         * inside one {@code synchronized} block.
         */
        Object getCheckpointLock();

        /** Called by the runtime when the source is done; a source does not need to call it. */
        void close();
    }
}
