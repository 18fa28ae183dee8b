package dev.runnel.streaming.api.transformations;

import java.util.List;

/** The union of streams of one type: their edges all lead into the next operator's single input. */
public final class UnionTransformation<T> extends Transformation<T> {

    private final List<Transformation<T>> inputs;

    public UnionTransformation(int id, List<Transformation<T>> inputs) {
        super(id, "Union", null, DEFAULT_PARALLELISM);
        this.inputs = List.copyOf(inputs);
    }

    public List<Transformation<T>> getUnionInputs() {
        return inputs;
    }

    @Override
    public List<Transformation<?>> getInputs() {
        return List.copyOf(inputs);
    }

    @Override
    public boolean hasOutputType() {
        return inputs.get(0).hasOutputType();
    }

    @Override
    public dev.runnel.api.common.typeinfo.TypeInformation<T> getOutputType() {
        return inputs.get(0).getOutputType();
    }
}
