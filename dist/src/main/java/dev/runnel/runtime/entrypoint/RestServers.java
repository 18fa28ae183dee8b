package dev.runnel.runtime.entrypoint;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.dispatcher.DispatcherGateway;

/**
 * Starts the JobManager's REST server over a {@link DispatcherGateway}. The one place the entrypoint meets the
 * REST module, so the two can evolve apart.
 */
final class RestServers {

    /** A started server and the port it listens on. */
    record Started(AutoCloseable server, int port) {}

    private RestServers() {}

    static Started start(Configuration configuration, DispatcherGateway gateway) throws Exception {
        // PLACEHOLDER until the REST server is merged: no REST API.
        return new Started(() -> {}, -1);
    }
}
