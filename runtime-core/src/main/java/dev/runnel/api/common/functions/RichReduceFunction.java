package dev.runnel.api.common.functions;

/** A {@link ReduceFunction} with a lifecycle and runtime context. */
public abstract class RichReduceFunction<T> extends AbstractRichFunction implements ReduceFunction<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract T reduce(T value1, T value2) throws Exception;
}
