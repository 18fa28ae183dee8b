package dev.runnel.metrics;

import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;

/** A {@link MetricGroup} kept in memory; reporters read it through {@link #getAllMetrics()}. */
public final class SimpleMetricGroup implements MetricGroup {

    private final String scope;
    private final ConcurrentHashMap<String, Metric> metrics = new ConcurrentHashMap<>();
    private final ConcurrentHashMap<String, SimpleMetricGroup> children = new ConcurrentHashMap<>();

    public SimpleMetricGroup(String scope) {
        this.scope = scope;
    }

    @Override
    public Counter counter(String name) {
        Metric metric = metrics.computeIfAbsent(name, n -> new SimpleCounter());
        if (!(metric instanceof Counter counter)) {
            throw new IllegalArgumentException("metric '" + scope + "." + name + "' exists and is not a counter");
        }
        return counter;
    }

    @Override
    public <T, G extends Gauge<T>> G gauge(String name, G gauge) {
        metrics.put(name, gauge);
        return gauge;
    }

    @Override
    public MetricGroup addGroup(String name) {
        return children.computeIfAbsent(name, n -> new SimpleMetricGroup(scope.isEmpty() ? n : scope + "." + n));
    }

    @Override
    public String getScope() {
        return scope;
    }

    @Override
    public Map<String, Metric> getAllMetrics() {
        Map<String, Metric> all = new TreeMap<>();
        metrics.forEach((name, metric) -> all.put(scope.isEmpty() ? name : scope + "." + name, metric));
        children.values().forEach(child -> all.putAll(child.getAllMetrics()));
        return all;
    }
}
