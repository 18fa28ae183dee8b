package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.ShuffleServiceFactory;

/** Registers the network shuffle under the name {@code netty}. */
public final class NettyShuffleServiceFactory implements ShuffleServiceFactory {

    @Override
    public String name() {
        return "netty";
    }

    @Override
    public ShuffleEnvironment create(Configuration configuration) {
        return new NettyShuffleEnvironment(configuration);
    }
}
