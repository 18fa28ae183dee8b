package dev.runnel.runtime.entrypoint;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.dispatcher.DispatcherGateway;
import dev.runnel.runtime.rest.RestServerEndpoint;
import dev.runnel.runtime.rest.prometheus.PrometheusReporter;
import java.nio.file.Files;
import java.nio.file.Path;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Starts the JobManager's HTTP servers over a {@link DispatcherGateway}: the REST API with the dashboard, and
 * the Prometheus endpoint when {@code metrics.reporter.prom.port} is set (as in Flink, no reporter runs unless
 * configured: several processes on one host would otherwise fight for one port).
 */
final class RestServers {

    private static final Logger LOG = LoggerFactory.getLogger(RestServers.class);

    /** The started servers and the REST port. */
    record Started(AutoCloseable server, int port) {}

    private RestServers() {}

    static Started start(Configuration configuration, DispatcherGateway gateway) throws Exception {
        Path uploads = Files.createTempDirectory("runnel-rest-uploads-");
        RestServerEndpoint rest = new RestServerEndpoint(configuration, gateway, uploads);
        rest.start();
        PrometheusReporter prometheus = startPrometheus(configuration, gateway::prometheusMetrics);
        LOG.info("REST API and dashboard at {}", rest.url());
        return new Started(() -> {
            rest.close();
            if (prometheus != null) {
                prometheus.close();
            }
        }, rest.port());
    }

    /** The Prometheus endpoint if {@code metrics.reporter.prom.port} is configured, else null. */
    static PrometheusReporter startPrometheus(Configuration configuration, java.util.function.Supplier<String> text)
            throws InterruptedException {
        if (!configuration.toMap().containsKey(PrometheusReporter.PORT.key())) {
            return null;
        }
        PrometheusReporter reporter = PrometheusReporter.start(configuration, text);
        LOG.info("Prometheus metrics on port {}", reporter.port());
        return reporter;
    }
}
