package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.AbstractRichFunction;

/** A {@link SinkFunction} with a lifecycle and runtime context. */
public abstract class RichSinkFunction<IN> extends AbstractRichFunction implements SinkFunction<IN> {

    private static final long serialVersionUID = 1L;
}
