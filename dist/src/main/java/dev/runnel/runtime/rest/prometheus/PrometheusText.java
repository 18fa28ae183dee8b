package dev.runnel.runtime.rest.prometheus;

import dev.runnel.metrics.Counter;
import dev.runnel.metrics.Gauge;
import dev.runnel.metrics.Metric;
import dev.runnel.metrics.MetricGroup;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * Builds Prometheus' text exposition format (version 0.0.4) in the style of Flink's PrometheusReporter: one
 * family per metric name, a {@code # TYPE} line, then one sample per label set:
 *
 * <pre>
 * # TYPE runnel_taskmanager_job_task_numRecordsIn gauge
 * runnel_taskmanager_job_task_numRecordsIn{job_name="WordCount",task_name="Sum",subtask_index="0",} 42.0
 * </pre>
 *
 * <p>Names keep only {@code [a-zA-Z0-9_:]} (anything else becomes {@code _}); label values are escaped. As in
 * Flink, counters are exposed as gauges (a Runnel counter may go down). Not thread-safe: build one per scrape.
 */
public final class PrometheusText {

    /** Flink's scope of task metrics, with Runnel's prefix. */
    public static final String TASK_PREFIX = "runnel_taskmanager_job_task";

    private record Sample(Map<String, String> labels, double value) {}

    private final Map<String, List<Sample>> families = new TreeMap<>();

    /** Adds one sample of the gauge family {@code name}. */
    public PrometheusText gauge(String name, Map<String, String> labels, double value) {
        families.computeIfAbsent(sanitize(name), n -> new ArrayList<>())
                .add(new Sample(new LinkedHashMap<>(labels), value));
        return this;
    }

    /**
     * Adds every counter and numeric (or boolean) gauge of {@code group} and its children, named {@code prefix}
     * plus the metric's name relative to the group ({@code Sum.myCounter} becomes {@code prefix_Sum_myCounter}),
     * each with {@code labels}; other gauges are left out.
     */
    public PrometheusText group(String prefix, MetricGroup group, Map<String, String> labels) {
        String scope = group.getScope();
        for (Map.Entry<String, Metric> e : group.getAllMetrics().entrySet()) {
            String relative = !scope.isEmpty() && e.getKey().startsWith(scope + ".")
                    ? e.getKey().substring(scope.length() + 1) : e.getKey();
            Double value = numericValue(e.getValue());
            if (value != null) {
                gauge(prefix + "_" + relative, labels, value);
            }
        }
        return this;
    }

    /**
     * Adds a task's metrics as Flink's reporter names them: {@code runnel_taskmanager_job_task_<metric>} with the
     * labels {@code job_id}, {@code job_name}, {@code task_name}, {@code subtask_index} (and {@code tm_id}).
     * {@code taskGroup} is the subtask's group (the one {@code StreamTask} registers its metrics in).
     */
    public PrometheusText task(String taskManagerId, String jobId, String jobName, String taskName, int subtask,
            MetricGroup taskGroup) {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("tm_id", taskManagerId);
        labels.put("job_id", jobId);
        labels.put("job_name", jobName);
        labels.put("task_name", taskName);
        labels.put("subtask_index", Integer.toString(subtask));
        return group(TASK_PREFIX, taskGroup, labels);
    }

    private static Double numericValue(Metric metric) {
        if (metric instanceof Counter counter) {
            return (double) counter.getCount();
        }
        if (metric instanceof Gauge<?> gauge) {
            Object value = gauge.getValue();
            if (value instanceof Number n) {
                return n.doubleValue();
            }
            if (value instanceof Boolean b) {
                return b ? 1.0 : 0.0;
            }
        }
        return null;
    }

    /** A metric or label name in Prometheus' alphabet. */
    public static String sanitize(String name) {
        StringBuilder sb = new StringBuilder(name.length());
        for (int i = 0; i < name.length(); i++) {
            char c = name.charAt(i);
            boolean ok = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c == ':'
                    || (c >= '0' && c <= '9' && i > 0);
            sb.append(ok ? c : '_');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        StringBuilder out = new StringBuilder();
        families.forEach((name, samples) -> {
            out.append("# TYPE ").append(name).append(" gauge\n");
            for (Sample s : samples) {
                out.append(name);
                if (!s.labels().isEmpty()) {
                    out.append('{');
                    s.labels().forEach((k, v) -> out.append(sanitize(k)).append("=\"").append(escape(v)).append("\","));
                    out.append('}');
                }
                out.append(' ').append(format(s.value())).append('\n');
            }
        });
        return out.toString();
    }

    private static String format(double v) {
        if (Double.isNaN(v)) {
            return "NaN";
        }
        if (Double.isInfinite(v)) {
            return v > 0 ? "+Inf" : "-Inf";
        }
        return Double.toString(v);
    }

    private static String escape(String value) {
        return value.replace("\\", "\\\\").replace("\"", "\\\"").replace("\n", "\\n");
    }
}
