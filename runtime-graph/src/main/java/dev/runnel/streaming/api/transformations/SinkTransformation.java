package dev.runnel.streaming.api.transformations;

import dev.runnel.streaming.api.operators.StreamOperator;
import java.util.List;

/** The end of a pipeline: an operator that writes records out and emits nothing. */
public final class SinkTransformation<T> extends PhysicalTransformation<Object> {

    public SinkTransformation(int id, String name, StreamOperator<Object> operator, Transformation<T> input,
            int parallelism) {
        super(id, name, operator, null, parallelism, List.of(input));
    }

    @Override
    public boolean isSink() {
        return true;
    }
}
