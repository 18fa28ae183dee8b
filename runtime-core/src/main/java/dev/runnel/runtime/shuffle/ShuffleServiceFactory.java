package dev.runnel.runtime.shuffle;

import dev.runnel.configuration.Configuration;

/**
 * Creates {@link ShuffleEnvironment}s; found through {@link java.util.ServiceLoader} and chosen by
 * {@link #name()} (configuration {@code shuffle.service}, default {@code local}).
 */
public interface ShuffleServiceFactory {

    /** The name users select this shuffle by. */
    String name();

    ShuffleEnvironment create(Configuration configuration);
}
