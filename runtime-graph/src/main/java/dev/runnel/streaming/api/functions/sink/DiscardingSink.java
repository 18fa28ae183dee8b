package dev.runnel.streaming.api.functions.sink;

/** Drops every record (benchmarks, tests). */
public final class DiscardingSink<T> implements SinkFunction<T> {

    private static final long serialVersionUID = 1L;

    @Override
    public void invoke(T value) {}
}
