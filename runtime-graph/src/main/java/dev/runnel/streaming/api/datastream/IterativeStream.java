package dev.runnel.streaming.api.datastream;

import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.transformations.Transformation;

/**
 * Flink's stream with a feedback edge ({@code DataStream.iterate()}). Runnel does not support
 * iterations, as Flink 2 removed them: this type exists so that programs naming it compile, but
 * {@link DataStream#iterate()} fails before one could be created, saying what to use instead.
 *
 * @param <T> the record type
 */
public final class IterativeStream<T> extends SingleOutputStreamOperator<T> {

    /** Why iterations fail, and what to do instead. */
    static final String NOT_SUPPORTED = "DataStream.iterate() is not supported: Runnel does not run iterations "
            + "(feedback edges), as Flink 2 removed them (IterativeStream was deprecated in Flink 1.19). "
            + "Instead, keep the loop's state in a KeyedProcessFunction and re-process with timers, or, for a "
            + "real feedback loop, write the records to an external queue (e.g. a Kafka topic) the job reads again.";

    private IterativeStream(StreamExecutionEnvironment environment, Transformation<T> transformation) {
        super(environment, transformation);
        throw new UnsupportedOperationException(NOT_SUPPORTED);
    }

    /** Would close the loop; never reached, since no iterative stream can be created. */
    public DataStream<T> closeWith(DataStream<T> feedbackStream) {
        throw new UnsupportedOperationException(NOT_SUPPORTED);
    }
}
