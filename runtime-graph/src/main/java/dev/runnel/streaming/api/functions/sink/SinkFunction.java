package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.Function;

/**
 * A simple sink for {@code DataStream.addSink}: called once per record on the task thread. For sinks
 * with a writer lifecycle use {@code sinkTo} with a {@code Sink}.
 */
public interface SinkFunction<IN> extends Function {

    /** Writes {@code value}. */
    default void invoke(IN value, Context context) throws Exception {
        invoke(value);
    }

    /** Writes {@code value}; override this or {@link #invoke(Object, Context)}. */
    default void invoke(IN value) throws Exception {}

    /** Called once at the end of a bounded input, before close. */
    default void finish() throws Exception {}

    /** What a sink may know about the record it writes. */
    interface Context {

        long currentProcessingTime();

        long currentWatermark();

        /** The record's timestamp, or null. */
        Long timestamp();
    }
}
