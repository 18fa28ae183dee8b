package dev.runnel.metrics;

import java.util.Map;

/**
 * A named scope of metrics (job, task, operator, subtask) in which user code and the runtime register
 * counters and gauges. Registering a name twice returns the existing counter. Registration is
 * thread-safe; it usually happens in {@code open()}.
 */
public interface MetricGroup {

    /** The counter named {@code name} in this group, created on first use. */
    Counter counter(String name);

    /** Registers {@code gauge} under {@code name} and returns it. */
    <T, G extends Gauge<T>> G gauge(String name, G gauge);

    /** A child group. */
    MetricGroup addGroup(String name);

    /** The dotted scope of this group, e.g. {@code wordcount.counter.0}. */
    String getScope();

    /** Every metric in this group and its children, by fully scoped name. */
    Map<String, Metric> getAllMetrics();
}
