package dev.runnel.test.junit5;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.runtime.minicluster.EmbeddedRuntime;
import dev.runnel.runtime.testutils.MiniClusterResourceConfiguration;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

/** The JUnit 5 extension: a keyed job runs across the extension's two TaskManagers. */
class MiniClusterExtensionTest {

    @RegisterExtension
    static final MiniClusterExtension MINI_CLUSTER = new MiniClusterExtension(
            new MiniClusterResourceConfiguration.Builder()
                    .setNumberTaskManagers(2)
                    .setNumberSlotsPerTaskManager(1)
                    .build());

    static final List<String> OUTPUT = Collections.synchronizedList(new ArrayList<>());

    @Test
    void environmentsHaveTheClustersShape() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        assertThat(env.getParallelism()).isEqualTo(2);
        assertThat(env.getConfiguration().get(EmbeddedRuntime.TASK_MANAGER_COUNT)).isEqualTo(2);
        assertThat(MINI_CLUSTER.getNumberSlots()).isEqualTo(2);
    }

    @Test
    void aKeyedJobRunsOnTheCluster() throws Exception {
        OUTPUT.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.fromElements("a", "b", "a", "c", "a")
                .map(w -> Tuple2.of(w, 1)).returns(Types.TUPLE(Types.STRING, Types.INT))
                .keyBy(t -> t.f0)
                .sum(1)
                .addSink(new SinkFunction<>() {
                    @Override
                    public void invoke(Tuple2<String, Integer> value, Context context) {
                        OUTPUT.add(value.f0 + "=" + value.f1);
                    }
                });
        env.execute("counts");
        assertThat(OUTPUT).containsExactlyInAnyOrder("a=1", "a=2", "a=3", "b=1", "c=1");
    }

    @Test
    void withoutTheExtensionEnvironmentsArePlainAgain() {
        MiniClusterExtension extension = new MiniClusterExtension(
                new MiniClusterResourceConfiguration.Builder().setNumberTaskManagers(3).build());
        extension.beforeAll(null);
        assertThat(StreamExecutionEnvironment.getExecutionEnvironment().getParallelism()).isEqualTo(3);
        extension.afterAll(null);
        StreamExecutionEnvironment plain = StreamExecutionEnvironment.getExecutionEnvironment();
        assertThat(plain.getConfiguration().contains(EmbeddedRuntime.TASK_MANAGER_COUNT)).isFalse();
        assertThat(plain.getParallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
        MINI_CLUSTER.beforeAll(null); // the class's cluster again for the other tests
    }
}
