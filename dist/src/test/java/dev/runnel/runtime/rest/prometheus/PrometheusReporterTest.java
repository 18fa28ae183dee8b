package dev.runnel.runtime.rest.prometheus;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.IllegalConfigurationException;
import dev.runnel.metrics.Gauge;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The text format of a task's metrics, and the endpoint that serves it on the first free port of a range. */
@Timeout(60)
class PrometheusReporterTest {

    private static Map<String, String> taskLabels() {
        Map<String, String> labels = new LinkedHashMap<>();
        labels.put("job_name", "Word \"Count\"");
        labels.put("task_name", "Sum");
        labels.put("subtask_index", "0");
        return labels;
    }

    @Test
    void rendersATaskGroupInFlinksStyle() {
        SimpleMetricGroup job = new SimpleMetricGroup("WordCount");
        MetricGroup task = job.addGroup("Sum -> Print to Std. Out").addGroup("0");
        task.counter("numRecordsIn").inc(42);
        task.gauge("backPressuredTimeMsPerSecond", (Gauge<Long>) () -> 880L);
        task.gauge("description", (Gauge<String>) () -> "not a number");
        task.addGroup("Sum").counter("my-counter").inc(3);

        String text = new PrometheusText().group("runnel_taskmanager_job_task", task, taskLabels()).toString();

        String labels = "{job_name=\"Word \\\"Count\\\"\",task_name=\"Sum\",subtask_index=\"0\",}";
        assertThat(text).isEqualTo(String.join("\n",
                "# TYPE runnel_taskmanager_job_task_Sum_my_counter gauge",
                "runnel_taskmanager_job_task_Sum_my_counter" + labels + " 3.0",
                "# TYPE runnel_taskmanager_job_task_backPressuredTimeMsPerSecond gauge",
                "runnel_taskmanager_job_task_backPressuredTimeMsPerSecond" + labels + " 880.0",
                "# TYPE runnel_taskmanager_job_task_numRecordsIn gauge",
                "runnel_taskmanager_job_task_numRecordsIn" + labels + " 42.0",
                ""));
    }

    @Test
    void taskLabelsAsFlinksReporterNamesThem() {
        SimpleMetricGroup group = new SimpleMetricGroup("WordCount");
        MetricGroup task = group.addGroup("Flat Map").addGroup("1");
        task.counter("numRecordsOut").inc(7);
        assertThat(new PrometheusText().task("tm-1", "00ff", "WordCount", "Flat Map", 1, task).toString())
                .isEqualTo("# TYPE runnel_taskmanager_job_task_numRecordsOut gauge\n"
                        + "runnel_taskmanager_job_task_numRecordsOut{tm_id=\"tm-1\",job_id=\"00ff\","
                        + "job_name=\"WordCount\",task_name=\"Flat Map\",subtask_index=\"1\",} 7.0\n");
    }

    @Test
    void samplesOfOneNameShareOneFamily() {
        String text = new PrometheusText()
                .gauge("runnel_taskmanager_job_task_numRecordsIn", Map.of("subtask_index", "0"), 1)
                .gauge("runnel_taskmanager_job_task_numRecordsIn", Map.of("subtask_index", "1"), 2)
                .gauge("9lives", Map.of(), Double.NaN).toString();
        assertThat(text.lines().filter(l -> l.startsWith("# TYPE runnel_taskmanager_job_task_numRecordsIn"))).hasSize(1);
        assertThat(text).contains("{subtask_index=\"1\",} 2.0").contains("_lives NaN");
    }

    @Test
    void servesMetricsOnTheFirstFreePortOfARange() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            int busy = taken.getLocalPort();
            Configuration config = new Configuration();
            config.set(PrometheusReporter.PORT, busy + "," + (busy + 1) + "-" + (busy + 40));
            AtomicInteger scrapes = new AtomicInteger();
            try (PrometheusReporter reporter = PrometheusReporter.start(config,
                    () -> "# TYPE runnel_up gauge\nrunnel_up " + scrapes.incrementAndGet() + ".0\n")) {
                assertThat(reporter.port()).isGreaterThan(busy).isLessThanOrEqualTo(busy + 40);
                HttpClient client = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
                URI uri = URI.create("http://127.0.0.1:" + reporter.port() + "/metrics");
                HttpResponse<String> first = client.send(HttpRequest.newBuilder(uri).build(),
                        HttpResponse.BodyHandlers.ofString());
                assertThat(first.statusCode()).isEqualTo(200);
                assertThat(first.headers().firstValue("Content-Type")).hasValue(PrometheusReporter.CONTENT_TYPE);
                assertThat(first.body()).isEqualTo("# TYPE runnel_up gauge\nrunnel_up 1.0\n");
                assertThat(client.send(HttpRequest.newBuilder(uri).build(), HttpResponse.BodyHandlers.ofString())
                        .body()).as("read afresh on every scrape").contains("runnel_up 2.0");
                assertThat(client.send(HttpRequest.newBuilder(uri.resolve("/other")).build(),
                        HttpResponse.BodyHandlers.ofString()).statusCode()).isEqualTo(404);
            }
        }
    }

    @Test
    void servesAMetricGroup() throws Exception {
        SimpleMetricGroup group = new SimpleMetricGroup("");
        group.addGroup("jobmanager").gauge("numRunningJobs", (Gauge<Integer>) () -> 2);
        Configuration config = new Configuration();
        config.set(PrometheusReporter.PORT, "0");
        try (PrometheusReporter reporter = PrometheusReporter.start(config, "runnel", group)) {
            HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                    "http://127.0.0.1:" + reporter.port() + "/metrics")).timeout(Duration.ofSeconds(10)).build(),
                    HttpResponse.BodyHandlers.ofString());
            assertThat(response.body()).isEqualTo("# TYPE runnel_jobmanager_numRunningJobs gauge\n"
                    + "runnel_jobmanager_numRunningJobs 2.0\n");
        }
    }

    @Test
    void portSpecifications() {
        assertThat(PrometheusReporter.ports("9249")).containsExactly(9249);
        assertThat(PrometheusReporter.ports("9249-9251, 9300")).containsExactly(9249, 9250, 9251, 9300);
        assertThatThrownBy(() -> PrometheusReporter.ports("9260-9249")).isInstanceOf(
                IllegalConfigurationException.class).hasMessageContaining("metrics.reporter.prom.port")
                .hasMessageContaining("'9260-9249'");
        assertThatThrownBy(() -> PrometheusReporter.ports("http")).isInstanceOf(IllegalConfigurationException.class);
        assertThat(List.of(PrometheusReporter.PORT.key(), PrometheusReporter.PORT.defaultValue()))
                .containsExactly("metrics.reporter.prom.port", "9249");
    }

    @Test
    void noFreePortIsAClearError() throws Exception {
        try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Configuration config = new Configuration();
            config.set(PrometheusReporter.PORT, Integer.toString(taken.getLocalPort()));
            assertThatThrownBy(() -> PrometheusReporter.start(config, () -> "")).isInstanceOf(
                    IllegalConfigurationException.class).hasMessageContaining("no port of " + taken.getLocalPort()
                    + " is free");
        }
    }
}
