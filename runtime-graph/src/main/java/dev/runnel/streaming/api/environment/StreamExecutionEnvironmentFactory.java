package dev.runnel.streaming.api.environment;

import dev.runnel.configuration.Configuration;

/**
 * Creates the environment {@link StreamExecutionEnvironment#getExecutionEnvironment()} returns while
 * a context (for example a test cluster) is installed.
 */
@FunctionalInterface
public interface StreamExecutionEnvironmentFactory {

    /** A new environment for a program that asked for one with {@code configuration}. */
    StreamExecutionEnvironment createExecutionEnvironment(Configuration configuration);
}
