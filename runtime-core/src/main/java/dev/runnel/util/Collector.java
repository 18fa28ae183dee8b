package dev.runnel.util;

/**
 * Receives the records a function emits, e.g. from {@code FlatMapFunction.flatMap}. The runtime
 * passes one to the function; the function calls {@link #collect(Object)} zero or more times per
 * input and must not keep the collector beyond the call (or the task's lifetime for operators).
 *
 * <p>Called only from the task thread that invoked the function; not thread-safe. Records must not
 * be null. Unless object reuse is enabled, a collected record may be modified after the call without
 * affecting what was emitted; with reuse, it must not be.
 *
 * @param <T> the type of emitted records
 */
public interface Collector<T> {

    /** Emits {@code record} downstream. */
    void collect(T record);

    /** Signals that no more records will be emitted. Called by the runtime, not by user functions. */
    void close();
}
