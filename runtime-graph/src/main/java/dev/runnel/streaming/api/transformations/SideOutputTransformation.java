package dev.runnel.streaming.api.transformations;

import dev.runnel.util.OutputTag;
import java.util.List;

/** Selects a side output of an operator; its edges carry only records sent to {@code tag}. */
public final class SideOutputTransformation<T> extends Transformation<T> {

    private final Transformation<?> input;
    private final OutputTag<T> tag;

    public SideOutputTransformation(int id, Transformation<?> input, OutputTag<T> tag) {
        super(id, "SideOutput(" + tag.getId() + ")", tag.getTypeInfo(), input.getParallelism());
        this.input = input;
        this.tag = tag;
    }

    public OutputTag<T> getTag() {
        return tag;
    }

    public Transformation<?> getInput() {
        return input;
    }

    @Override
    public List<Transformation<?>> getInputs() {
        return List.of(input);
    }
}
