package dev.runnel.api.java.operators.translation;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.api.common.functions.Function;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichFunction;
import dev.runnel.api.common.functions.RuntimeContext;
import java.util.Objects;

/**
 * Base of functions that adapt a user function to another interface (a join function run as a
 * co-group, an all-window function run as a keyed window function): the wrapper is rich, and hands
 * its lifecycle and runtime context on to the wrapped function when that is rich too, so the user's
 * {@code open()} and {@code close()} run exactly as they would unwrapped.
 *
 * @param <T> the type of the wrapped function
 */
public abstract class WrappingFunction<T extends Function> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    protected final T wrappedFunction;

    protected WrappingFunction(T wrappedFunction) {
        this.wrappedFunction = Objects.requireNonNull(wrappedFunction, "wrappedFunction");
    }

    public T getWrappedFunction() {
        return wrappedFunction;
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        if (wrappedFunction instanceof RichFunction rich) {
            rich.open(openContext);
        }
    }

    @Override
    public void close() throws Exception {
        if (wrappedFunction instanceof RichFunction rich) {
            rich.close();
        }
    }

    @Override
    public void setRuntimeContext(RuntimeContext runtimeContext) {
        super.setRuntimeContext(runtimeContext);
        if (wrappedFunction instanceof RichFunction rich) {
            rich.setRuntimeContext(runtimeContext);
        }
    }
}
