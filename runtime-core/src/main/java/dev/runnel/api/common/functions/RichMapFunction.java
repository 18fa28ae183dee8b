package dev.runnel.api.common.functions;

/** A {@link MapFunction} with a lifecycle and runtime context. */
public abstract class RichMapFunction<IN, OUT> extends AbstractRichFunction implements MapFunction<IN, OUT> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract OUT map(IN value) throws Exception;
}
