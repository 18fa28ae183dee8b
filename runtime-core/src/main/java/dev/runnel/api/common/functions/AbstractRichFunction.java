package dev.runnel.api.common.functions;

/** Base of the {@code Rich*Function} classes: holds the runtime context. */
public abstract class AbstractRichFunction implements RichFunction {

    private static final long serialVersionUID = 1L;

    private transient RuntimeContext runtimeContext;

    @Override
    public void setRuntimeContext(RuntimeContext runtimeContext) {
        this.runtimeContext = runtimeContext;
    }

    @Override
    public RuntimeContext getRuntimeContext() {
        if (runtimeContext == null) {
            throw new IllegalStateException("The runtime context has not been set yet: it is available from open() on, "
                    + "not in the constructor.");
        }
        return runtimeContext;
    }
}
