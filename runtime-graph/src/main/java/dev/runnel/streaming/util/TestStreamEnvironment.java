package dev.runnel.streaming.util;

import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.testutils.MiniClusterResourceConfiguration;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;

/**
 * The environment {@code getExecutionEnvironment()} returns while a test cluster
 * ({@code MiniClusterWithClientResource}, {@code MiniClusterExtension}) is active: the embedded
 * runtime with the cluster's TaskManagers and configuration, and TaskManagers &times; slots as the
 * default parallelism. Unlike Flink's, it takes the cluster's shape rather than a running
 * {@code MiniCluster}: each job starts its own embedded TaskManagers of that shape.
 */
public class TestStreamEnvironment extends StreamExecutionEnvironment {

    /** An environment on a cluster of {@code cluster}'s shape; {@code jobConfiguration}'s settings win. */
    public TestStreamEnvironment(MiniClusterResourceConfiguration cluster, Configuration jobConfiguration) {
        super(merge(cluster, jobConfiguration), parallelism(cluster, jobConfiguration));
    }

    /** Makes {@code getExecutionEnvironment()}, in every thread, return environments on {@code cluster}. */
    public static void setAsContext(MiniClusterResourceConfiguration cluster) {
        initializeContextEnvironment(configuration -> new TestStreamEnvironment(cluster, configuration));
    }

    /** {@code getExecutionEnvironment()} returns plain embedded environments again. */
    public static void unsetAsContext() {
        resetContextEnvironment();
    }

    private static Configuration merge(MiniClusterResourceConfiguration cluster, Configuration jobConfiguration) {
        Configuration merged = cluster.getConfiguration();
        merged.set(EmbeddedRuntime.TASK_MANAGER_COUNT, cluster.getNumberTaskManagers());
        jobConfiguration.toMap().forEach(merged::setString);
        return merged;
    }

    private static int parallelism(MiniClusterResourceConfiguration cluster, Configuration jobConfiguration) {
        return jobConfiguration.contains(CoreOptions.DEFAULT_PARALLELISM)
                ? jobConfiguration.get(CoreOptions.DEFAULT_PARALLELISM) : cluster.getNumberSlots();
    }
}
