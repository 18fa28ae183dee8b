package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.api.java.utils.ParameterTool;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.InstantiationUtil;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Global job parameters reach user functions as in Flink's "Handling Application Parameters" page. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class GlobalJobParametersEndToEndTest {

    /** Reads the prefix from the ParameterTool the job registered, the way Flink's docs do. */
    static final class Prefixer extends RichMapFunction<String, String> {
        private String prefix;

        @Override
        public void open(OpenContext openContext) {
            ParameterTool parameters =
                    (ParameterTool) getRuntimeContext().getExecutionConfig().getGlobalJobParameters();
            prefix = parameters.getRequired("prefix") + parameters.getInt("repeat", 1);
        }

        @Override
        public String map(String value) {
            return prefix + ":" + value;
        }
    }

    /** Reads the parameters as a map, Flink 1.19's RuntimeContext#getGlobalJobParameters. */
    static final class MapReader extends RichMapFunction<String, String> {
        @Override
        public String map(String value) {
            Map<String, String> parameters = getRuntimeContext().getGlobalJobParameters();
            return value + "/" + parameters.get("suffix") + "/" + parameters.size();
        }
    }

    /** Reads a Configuration registered as the global parameters. */
    static final class ConfigurationReader extends RichMapFunction<String, String> {
        @Override
        public String map(String value) {
            Configuration conf = (Configuration) getRuntimeContext().getExecutionConfig().getGlobalJobParameters();
            return value + "=" + conf.getString("mykey", null);
        }
    }

    @Test
    void aParameterToolFromTheArgumentsReachesEveryFunction() throws Exception {
        ParameterTool params = ParameterTool.fromArgs(new String[] {"--prefix", "p", "--repeat", "2", "--unused", "x"});
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.getConfig().setGlobalJobParameters(params);
        List<String> out = env.fromData("a", "b", "c").rebalance().map(new Prefixer()).executeAndCollect(10);
        assertThat(out).containsExactlyInAnyOrder("p2:a", "p2:b", "p2:c");
        // What the functions read stays in their copy: the program's tool still lists these as unread.
        assertThat(params.getUnrequestedParameters()).containsExactlyInAnyOrder("prefix", "repeat", "unused");
    }

    @Test
    void functionsCanReadTheParametersAsAMap() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().setGlobalJobParameters(ParameterTool.fromMap(Map.of("suffix", "s", "other", "o")));
        assertThat(env.fromData("x").map(new MapReader()).executeAndCollect(10)).containsExactly("x/s/2");
    }

    @Test
    void withoutParametersTheMapIsEmpty() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThat(env.fromData("x").map(new MapReader()).executeAndCollect(10)).containsExactly("x/null/0");
    }

    @Test
    void aConfigurationServesAsGlobalParameters() throws Exception {
        Configuration conf = new Configuration();
        conf.setString("mykey", "myvalue");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().setGlobalJobParameters(conf);
        assertThat(env.fromData("k").map(new ConfigurationReader()).executeAndCollect(10)).containsExactly("k=myvalue");
    }

    @Test
    void theJobGraphCarriesASerializableCopy() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        ParameterTool params = ParameterTool.fromArgs(new String[] {"--k", "v"});
        env.getConfig().setGlobalJobParameters(params);
        env.fromData(1).print();
        JobGraph jobGraph = env.getStreamGraph().getJobGraph();
        env.getConfig().setGlobalJobParameters(ParameterTool.fromArgs(new String[] {"--k", "changed"}));
        ExecutionConfig shipped = jobGraph.getExecutionConfig();
        assertThat(shipped).isNotSameAs(env.getConfig());
        assertThat(shipped.getGlobalJobParameters()).isNotSameAs(params).isEqualTo(params);
        JobGraph overTheWire = InstantiationUtil.clone(jobGraph, "job graph");
        assertThat(((ParameterTool) overTheWire.getExecutionConfig().getGlobalJobParameters()).get("k")).isEqualTo("v");
    }

    /** Holds something that cannot be shipped. */
    static final class NotShippable extends ExecutionConfig.GlobalJobParameters {
        private final Object lock = new Object();

        @Override
        public Map<String, String> toMap() {
            return Map.of("lock", lock.toString());
        }
    }

    @Test
    void parametersThatCannotBeShippedFailWhenTheJobIsBuilt() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().setGlobalJobParameters(new NotShippable());
        env.fromData(1).print();
        assertThatThrownBy(() -> env.execute("not shippable")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("execution config (with its global job parameters, "
                        + NotShippable.class.getName() + ") is not serializable")
                .hasMessageContaining("java.lang.Object");
    }
}
