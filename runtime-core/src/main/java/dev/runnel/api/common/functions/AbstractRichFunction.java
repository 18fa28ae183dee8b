package dev.runnel.api.common.functions;

import dev.runnel.configuration.Configuration;

/**
 * Base of the {@code Rich*Function} classes: holds the runtime context and gives every lifecycle
 * method an empty default, so a subclass overrides just the ones it needs and may call
 * {@code super.open(...)} / {@code super.close()} as Flink code does. See {@link RichFunction} for
 * how the two {@code open} methods relate.
 */
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

    /**
     * Does nothing; called by the default {@link #open(OpenContext)}.
     *
     * @deprecated override {@link #open(OpenContext)} instead
     */
    @Deprecated
    @Override
    public void open(Configuration parameters) throws Exception {}

    /** Calls {@link #open(Configuration)} with an empty configuration. */
    @Override
    public void open(OpenContext openContext) throws Exception {
        open(new Configuration());
    }

    /** Does nothing. */
    @Override
    public void close() throws Exception {}
}
