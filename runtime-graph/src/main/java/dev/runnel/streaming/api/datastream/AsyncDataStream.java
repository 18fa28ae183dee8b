package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.streaming.api.functions.async.AsyncFunction;
import dev.runnel.streaming.api.functions.async.AsyncRetryStrategy;
import dev.runnel.streaming.util.retryable.AsyncRetryStrategies;
import dev.runnel.streaming.api.operators.async.AsyncWaitOperator;
import java.util.concurrent.TimeUnit;

/**
 * Adds asynchronous I/O to a stream, as in Flink: an {@link AsyncFunction} issues a request per record and
 * completes it later, while up to {@code capacity} records are in flight. {@code orderedWait} emits the
 * results in input order; {@code unorderedWait} emits them as they complete, but never across a watermark.
 * Semantics: {@link AsyncWaitOperator}.
 *
 * <p>Called on the user's thread while the program is built. The {@code ...WithRetry} variants ask the function
 * again for a record whose result or error the strategy's predicate accepts ({@code AsyncRetryStrategies}).
 */
public final class AsyncDataStream {

    /** How results are ordered. */
    public enum OutputMode {
        /** In the order of the input records. */
        ORDERED,
        /** As they complete, but records do not overtake watermarks. */
        UNORDERED
    }

    /** Capacity used when none is given, as in Flink. */
    private static final int DEFAULT_QUEUE_CAPACITY = 100;

    private static final String OPERATOR_NAME = "async wait operator";

    private AsyncDataStream() {}

    public static <IN, OUT> SingleOutputStreamOperator<OUT> unorderedWait(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, int capacity) {
        return addOperator(in, func, timeUnit.toMillis(timeout), capacity, OutputMode.UNORDERED);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> unorderedWait(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit) {
        return unorderedWait(in, func, timeout, timeUnit, DEFAULT_QUEUE_CAPACITY);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> orderedWait(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, int capacity) {
        return addOperator(in, func, timeUnit.toMillis(timeout), capacity, OutputMode.ORDERED);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> orderedWait(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit) {
        return orderedWait(in, func, timeout, timeUnit, DEFAULT_QUEUE_CAPACITY);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> unorderedWaitWithRetry(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, int capacity,
            AsyncRetryStrategy<OUT> asyncRetryStrategy) {
        return addOperator(in, func, timeUnit.toMillis(timeout), capacity, OutputMode.UNORDERED, asyncRetryStrategy);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> unorderedWaitWithRetry(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, AsyncRetryStrategy<OUT> asyncRetryStrategy) {
        return unorderedWaitWithRetry(in, func, timeout, timeUnit, DEFAULT_QUEUE_CAPACITY, asyncRetryStrategy);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> orderedWaitWithRetry(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, int capacity,
            AsyncRetryStrategy<OUT> asyncRetryStrategy) {
        return addOperator(in, func, timeUnit.toMillis(timeout), capacity, OutputMode.ORDERED, asyncRetryStrategy);
    }

    public static <IN, OUT> SingleOutputStreamOperator<OUT> orderedWaitWithRetry(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeout, TimeUnit timeUnit, AsyncRetryStrategy<OUT> asyncRetryStrategy) {
        return orderedWaitWithRetry(in, func, timeout, timeUnit, DEFAULT_QUEUE_CAPACITY, asyncRetryStrategy);
    }

    @SuppressWarnings("unchecked")
    private static <IN, OUT> SingleOutputStreamOperator<OUT> addOperator(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeoutMillis, int capacity, OutputMode mode) {
        return addOperator(in, func, timeoutMillis, capacity, mode, AsyncRetryStrategies.NO_RETRY_STRATEGY);
    }

    private static <IN, OUT> SingleOutputStreamOperator<OUT> addOperator(DataStream<IN> in,
            AsyncFunction<IN, OUT> func, long timeoutMillis, int capacity, OutputMode mode,
            AsyncRetryStrategy<OUT> retryStrategy) {
        AsyncFunction<IN, OUT> function = DataStream.clean(func);
        TypeInformation<OUT> outType = in.outputType(function, AsyncFunction.class, 1, in.typeOrNull());
        return in.transform(OPERATOR_NAME, outType,
                new AsyncWaitOperator<>(function, timeoutMillis, capacity, mode, in.getType(), retryStrategy));
    }
}
