package dev.runnel.streaming.api.operators;

/** An operator with one input. */
public interface OneInputStreamOperator<IN, OUT> extends StreamOperator<OUT>, Input<IN> {}
