package dev.runnel.test.util;

import static org.junit.Assert.assertEquals;
import static org.junit.Assert.assertTrue;

import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.testutils.MiniClusterResourceConfiguration;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.ClassRule;
import org.junit.Test;

/**
 * A JUnit 4 integration test as Flink's testing docs write it, with only the imports changed (run by
 * the Vintage engine): the rule's cluster runs the job, a static list collects its output.
 */
public class ExampleIntegrationTest {

    @ClassRule
    public static MiniClusterWithClientResource flinkCluster =
            new MiniClusterWithClientResource(
                    new MiniClusterResourceConfiguration.Builder()
                            .setNumberSlotsPerTaskManager(2)
                            .setNumberTaskManagers(2)
                            .build());

    @Test
    public void testIncrementPipeline() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();

        // configure your test environment
        env.setParallelism(2);

        // values are collected in a static variable
        CollectSink.values.clear();

        // create a stream of custom elements and apply transformations
        env.fromElements(1L, 21L, 22L)
                .map(new IncrementMapFunction())
                .addSink(new CollectSink());

        // execute
        env.execute();

        // verify your results
        assertTrue(CollectSink.values.containsAll(List.of(2L, 22L, 23L)));
        assertEquals(3, CollectSink.values.size());
    }

    @Test
    public void jobsGetTheClustersTaskManagersAndSlotsAsDefaultParallelism() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        assertEquals(4, env.getParallelism());
        assertEquals(Integer.valueOf(2), env.getConfiguration().get(EmbeddedRuntime.TASK_MANAGER_COUNT));
        assertEquals(4, flinkCluster.getNumberSlots());
    }

    /** Adds one. */
    public static class IncrementMapFunction implements MapFunction<Long, Long> {
        @Override
        public Long map(Long record) throws Exception {
            return record + 1;
        }
    }

    // create a testing sink
    private static class CollectSink implements SinkFunction<Long> {

        // must be static
        public static final List<Long> values = Collections.synchronizedList(new ArrayList<>());

        @Override
        public void invoke(Long value, SinkFunction.Context context) throws Exception {
            values.add(value);
        }
    }
}
