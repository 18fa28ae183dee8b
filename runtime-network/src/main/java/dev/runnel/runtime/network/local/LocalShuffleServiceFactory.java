package dev.runnel.runtime.network.local;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.ShuffleServiceFactory;

/** Registers the in-JVM shuffle under the name {@code local}. */
public final class LocalShuffleServiceFactory implements ShuffleServiceFactory {

    @Override
    public String name() {
        return "local";
    }

    @Override
    public ShuffleEnvironment create(Configuration configuration) {
        return new LocalShuffleEnvironment(configuration);
    }
}
