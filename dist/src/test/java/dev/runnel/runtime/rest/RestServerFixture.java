package dev.runnel.runtime.rest;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.RestOptions;
import java.nio.file.Path;

/** Starts a {@link RestServerEndpoint} on a free loopback port over an {@link InMemoryDispatcherGateway}. */
final class RestServerFixture implements AutoCloseable {

    final InMemoryDispatcherGateway gateway = new InMemoryDispatcherGateway();
    final RestServerEndpoint server;
    final RestTestClient client;

    RestServerFixture(Path uploadDir, Configuration extra, String clientToken) throws InterruptedException {
        Configuration config = new Configuration();
        config.set(RestOptions.PORT, 0);
        config.addAll(extra);
        server = new RestServerEndpoint(config, gateway, uploadDir);
        server.start();
        client = new RestTestClient(server.url(), clientToken);
    }

    RestServerFixture(Path uploadDir) throws InterruptedException {
        this(uploadDir, new Configuration(), null);
    }

    @Override
    public void close() {
        server.close();
    }
}
