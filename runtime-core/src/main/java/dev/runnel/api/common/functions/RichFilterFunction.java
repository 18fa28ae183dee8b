package dev.runnel.api.common.functions;

/** A {@link FilterFunction} with a lifecycle and runtime context. */
public abstract class RichFilterFunction<T> extends AbstractRichFunction implements FilterFunction<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract boolean filter(T value) throws Exception;
}
