package dev.runnel.streaming.api.operators;

import java.util.Objects;

/**
 * What {@link StreamOperator#setup} hands an operator.
 *
 * @param task the containing task
 * @param config the operator's configuration
 * @param output where the operator's results go
 */
public record StreamOperatorParameters<OUT>(StreamTaskContext task, OperatorConfig config, Output<OUT> output) {

    public StreamOperatorParameters {
        Objects.requireNonNull(task, "task");
        Objects.requireNonNull(config, "config");
        Objects.requireNonNull(output, "output");
    }
}
