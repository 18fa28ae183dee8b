package dev.runnel.metrics;

/** Marker of everything a {@link MetricGroup} can hold. */
public interface Metric {}
