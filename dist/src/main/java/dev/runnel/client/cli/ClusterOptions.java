package dev.runnel.client.cli;

import dev.runnel.client.rest.RestClusterClient;
import dev.runnel.configuration.Configuration;
import java.net.URI;
import picocli.CommandLine.Option;

/**
 * Where the JobManager is, for every command that talks to it: {@code -m host:port}, else {@code rest.address}
 * (falling back to {@code jobmanager.rpc.address}, as in Flink) and {@code rest.port} of the configuration, else
 * 127.0.0.1:8081. A picocli mixin; one instance per command.
 */
final class ClusterOptions {

    static final String DEFAULT_ADDRESS = "127.0.0.1";
    static final int DEFAULT_PORT = 8081;

    @Option(names = {"-m", "--jobmanager"}, paramLabel = "<host:port>",
            description = "The JobManager's REST address (default: rest.address and rest.port of runnel.yaml, else "
                    + "127.0.0.1:8081).")
    String jobManager;

    /** The REST client of the JobManager these options name, with {@code rest.auth.token} if configured. */
    RestClusterClient client(Configuration configuration) {
        return new RestClusterClient(address(configuration), configuration.getString("rest.auth.token", null));
    }

    URI address(Configuration configuration) {
        String hostPort = jobManager;
        if (hostPort == null) {
            String host = configuration.getString("rest.address",
                    configuration.getString("jobmanager.rpc.address", DEFAULT_ADDRESS));
            hostPort = host + ":" + configuration.getString("rest.port", String.valueOf(DEFAULT_PORT));
        }
        String url = hostPort.contains("://") ? hostPort : "http://" + hostPort;
        URI uri;
        try {
            uri = URI.create(url);
        } catch (IllegalArgumentException e) {
            throw new CliException("The JobManager address '" + hostPort + "' is not host:port (" + e.getMessage() + ")");
        }
        if (uri.getHost() == null || uri.getPort() < 0) {
            throw new CliException("The JobManager address '" + hostPort + "' is not host:port, e.g. 127.0.0.1:8081");
        }
        return uri;
    }
}
