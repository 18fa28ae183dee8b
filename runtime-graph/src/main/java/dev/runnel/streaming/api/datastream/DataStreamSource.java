package dev.runnel.streaming.api.datastream;

import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.transformations.Transformation;

/**
 * The stream a source produces. A non-parallel source (a legacy {@code SourceFunction} that is not a
 * {@code ParallelSourceFunction}) keeps parallelism 1: asking for more fails.
 */
public class DataStreamSource<T> extends SingleOutputStreamOperator<T> {

    private final boolean isParallel;

    public DataStreamSource(StreamExecutionEnvironment environment, Transformation<T> transformation) {
        this(environment, transformation, true);
    }

    /** A source stream; with {@code isParallel} false its parallelism is fixed to 1. */
    public DataStreamSource(StreamExecutionEnvironment environment, Transformation<T> transformation,
            boolean isParallel) {
        super(environment, transformation);
        this.isParallel = isParallel;
        if (!isParallel) {
            transformation.setParallelism(1);
        }
    }

    /** Whether the source can run with a parallelism above 1. */
    public boolean isParallel() {
        return isParallel;
    }

    /**
     * @throws IllegalArgumentException if the source is not parallel and {@code parallelism} is not 1
     */
    @Override
    public DataStreamSource<T> setParallelism(int parallelism) {
        if (!isParallel && parallelism != 1) {
            throw new IllegalArgumentException("Source '" + getName() + "' is a non-parallel SourceFunction, so its "
                    + "parallelism must be 1, not " + parallelism + ". Implement ParallelSourceFunction (or extend "
                    + "RichParallelSourceFunction) to run it in parallel.");
        }
        super.setParallelism(parallelism);
        return this;
    }
}
