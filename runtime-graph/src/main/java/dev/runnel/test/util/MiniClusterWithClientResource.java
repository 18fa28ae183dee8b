package dev.runnel.test.util;

import dev.runnel.runtime.testutils.MiniClusterResourceConfiguration;
import dev.runnel.streaming.util.TestStreamEnvironment;
import org.junit.rules.ExternalResource;

/**
 * A JUnit 4 rule that runs the jobs of a test on a cluster of the configured shape, as Flink's:
 *
 * <pre>{@code
 * @ClassRule
 * public static MiniClusterWithClientResource flinkCluster = new MiniClusterWithClientResource(
 *         new MiniClusterResourceConfiguration.Builder()
 *                 .setNumberSlotsPerTaskManager(2)
 *                 .setNumberTaskManagers(1)
 *                 .build());
 * }</pre>
 *
 * <p>While the rule is active, {@code StreamExecutionEnvironment.getExecutionEnvironment()} returns a
 * {@link TestStreamEnvironment}: the embedded runtime with that many TaskManagers
 * ({@code taskmanager.count}) and TaskManagers &times; slots as default parallelism.
 *
 * <p>This class lives in runtime-graph's main jar, where JUnit 4 is an optional dependency: a user
 * who adds runtime-graph does not get JUnit, and no other Runnel class names this one, so JUnit is
 * only loaded by a test that uses the rule (its test scope has JUnit anyway). Differences from Flink:
 * there is no long-running cluster or cluster client; each job starts its own embedded TaskManagers
 * of the configured shape, and slots only set the default parallelism (a job asking for more still runs).
 */
public class MiniClusterWithClientResource extends ExternalResource {

    private final MiniClusterResourceConfiguration configuration;

    public MiniClusterWithClientResource(MiniClusterResourceConfiguration configuration) {
        this.configuration = configuration;
    }

    /** TaskManagers &times; slots. */
    public int getNumberSlots() {
        return configuration.getNumberSlots();
    }

    public MiniClusterResourceConfiguration getConfiguration() {
        return configuration;
    }

    @Override
    protected void before() {
        TestStreamEnvironment.setAsContext(configuration);
    }

    @Override
    protected void after() {
        TestStreamEnvironment.unsetAsContext();
    }
}
