package dev.runnel.test.junit5;

import dev.runnel.runtime.testutils.MiniClusterResourceConfiguration;
import dev.runnel.streaming.util.TestStreamEnvironment;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A JUnit 5 extension that runs the jobs of a test class on a cluster of the configured shape, as
 * Flink's:
 *
 * <pre>{@code
 * @RegisterExtension
 * static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
 *         new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(2).setNumberSlotsPerTaskManager(2).build());
 * }</pre>
 *
 * or {@code @ExtendWith(MiniClusterExtension.class)} for one TaskManager with one slot. Registered in
 * a static field it is active for the whole class, in an instance field for each test. While active,
 * {@code getExecutionEnvironment()} returns a {@link TestStreamEnvironment} (see
 * {@code MiniClusterWithClientResource} for what that runs and how it differs from Flink).
 *
 * <p>In runtime-graph's main jar with junit-jupiter-api as an optional dependency: only a test that
 * uses this class loads JUnit through it.
 */
public class MiniClusterExtension implements BeforeAllCallback, BeforeEachCallback, AfterEachCallback,
        AfterAllCallback {

    private final MiniClusterResourceConfiguration configuration;
    private boolean activeForClass;

    /** One TaskManager with one slot. */
    public MiniClusterExtension() {
        this(new MiniClusterResourceConfiguration.Builder().build());
    }

    public MiniClusterExtension(MiniClusterResourceConfiguration configuration) {
        this.configuration = configuration;
    }

    /** TaskManagers &times; slots. */
    public int getNumberSlots() {
        return configuration.getNumberSlots();
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        activeForClass = true;
        TestStreamEnvironment.setAsContext(configuration);
    }

    @Override
    public void beforeEach(ExtensionContext context) {
        if (!activeForClass) {
            TestStreamEnvironment.setAsContext(configuration);
        }
    }

    @Override
    public void afterEach(ExtensionContext context) {
        if (!activeForClass) {
            TestStreamEnvironment.unsetAsContext();
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        activeForClass = false;
        TestStreamEnvironment.unsetAsContext();
    }
}
