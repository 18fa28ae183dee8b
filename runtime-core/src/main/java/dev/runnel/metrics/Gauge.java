package dev.runnel.metrics;

/** A value read on demand, possibly from another thread; must be cheap and thread-safe. */
@FunctionalInterface
public interface Gauge<T> extends Metric {

    T getValue();
}
