package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.CoreOptions;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.datastream.DataStreamSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.graph.StreamGraph;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** fromData, the public constructors and the stream graph / job graph accessors, used as in Flink. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EnvironmentApiTest {

    @Test
    void fromDataVarargsKeepsOrderAtParallelismOne() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4);
        DataStreamSource<Integer> source = env.fromData(3, 1, 2);
        assertThat(source.getParallelism()).isEqualTo(1);
        assertThat(source.getType()).isEqualTo(Types.INT);
        assertThat(source.executeAndCollect(10)).containsExactly(3, 1, 2);
    }

    @Test
    void fromDataInfersTupleFieldTypes() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        DataStreamSource<Tuple2<String, Integer>> source = env.fromData(Tuple2.of("a", 1), Tuple2.of("b", 2));
        assertThat(source.getType()).isEqualTo(Types.TUPLE(Types.STRING, Types.INT));
        assertThat(source.keyBy(t -> t.f0).sum(1).executeAndCollect(10))
                .containsExactly(Tuple2.of("a", 1), Tuple2.of("b", 2));
    }

    @Test
    void fromDataWithTypeInformationClassOrCollection() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThat(env.fromData(Types.LONG, 5L, 6L).executeAndCollect(10)).containsExactly(5L, 6L);
        assertThat(env.fromData(Number.class, 1, 2.5).getType().getTypeClass()).isEqualTo(Number.class);
        assertThat(env.fromData(List.of("x", "y")).executeAndCollect(10)).containsExactly("x", "y");
        assertThat(env.fromData(new ArrayList<String>(), Types.STRING).executeAndCollect(10)).isEmpty();
    }

    @Test
    void fromDataRejectsWhatItCannotType() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThatThrownBy(() -> env.fromData()).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("fromData needs at least one element as argument");
        assertThatThrownBy(() -> env.fromData(List.of())).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("fromData needs a non-empty collection");
        assertThatThrownBy(() -> env.fromData("a", null)).isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("must not be null");
    }

    @Test
    void publicConstructorsRunOnTheEmbeddedRuntime() throws Exception {
        StreamExecutionEnvironment plain = new StreamExecutionEnvironment();
        assertThat(plain.getParallelism()).isEqualTo(Runtime.getRuntime().availableProcessors());
        Configuration conf = new Configuration();
        conf.set(CoreOptions.DEFAULT_PARALLELISM, 3);
        StreamExecutionEnvironment configured = new StreamExecutionEnvironment(conf);
        assertThat(configured.getParallelism()).isEqualTo(3);
        assertThat(configured.getConfiguration().get(CoreOptions.DEFAULT_PARALLELISM)).isEqualTo(3);
        assertThat(StreamExecutionEnvironment.getExecutionEnvironment(conf).getParallelism()).isEqualTo(3);
        assertThat(configured.fromSequence(1, 6).map(x -> x * 10).executeAndCollect(10))
                .containsExactlyInAnyOrder(10L, 20L, 30L, 40L, 50L, 60L);
    }

    @Test
    void getStreamGraphForgetsTheDefinitionsAndExecutesLater() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 4).map(x -> x + 1).name("plus one").print().name("out");
        StreamGraph streamGraph = env.getStreamGraph();
        assertThat(env.getTransformations()).isEmpty();
        assertThat(streamGraph.getJobName()).isEqualTo("Runnel Streaming Job");
        assertThat(streamGraph.getNodes()).extracting(n -> n.getName())
                .containsExactly("Sequence Source", "plus one", "out");
        streamGraph.setJobName("renamed");
        JobGraph jobGraph = streamGraph.getJobGraph();
        assertThat(jobGraph.getJobName()).isEqualTo("renamed");
        assertThat(jobGraph.getVertices()).hasSize(1);
        assertThat(jobGraph.getVertices().get(0).getName()).isEqualTo("Sequence Source -> plus one -> out");
        JobExecutionResult result = env.execute(streamGraph);
        assertThat(result.getJobID()).isNotNull();
    }

    @Test
    void getStreamGraphCanKeepTheDefinitions() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromData(1).print();
        StreamGraph kept = env.getStreamGraph(false);
        assertThat(env.getTransformations()).isNotEmpty();
        assertThat(env.getStreamGraph(true).getNodes()).hasSameSizeAs(kept.getNodes());
        assertThat(env.getTransformations()).isEmpty();
    }
}
