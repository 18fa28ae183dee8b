package dev.runnel.api.common.functions;

/** A {@link JoinFunction} with a lifecycle and runtime context. */
public abstract class RichJoinFunction<IN1, IN2, OUT> extends AbstractRichFunction implements JoinFunction<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    @Override
    public abstract OUT join(IN1 first, IN2 second) throws Exception;
}
