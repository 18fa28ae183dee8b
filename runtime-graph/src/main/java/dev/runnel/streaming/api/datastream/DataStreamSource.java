package dev.runnel.streaming.api.datastream;

import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.transformations.Transformation;

/** The stream a source produces. */
public class DataStreamSource<T> extends SingleOutputStreamOperator<T> {

    public DataStreamSource(StreamExecutionEnvironment environment, Transformation<T> transformation) {
        super(environment, transformation);
    }
}
