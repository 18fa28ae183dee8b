package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.PipelineOptions;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.v2.DiscardingSink;
import java.time.Duration;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The {@code pipeline.*} keys of a Flink configuration ({@code -D} flags, or a {@link Configuration} given to the
 * environment) take effect as they do in Flink: they reach the compiled job, a later
 * {@code configure} replaces them, and what the program sets afterwards wins.
 */
@Timeout(60)
class PipelineOptionsTest {

    /** A source, a keyed map and a sink: two vertices when chained (the keyBy splits), three when not. */
    private static JobGraph keyedJob(StreamExecutionEnvironment env) {
        env.fromSequence(1, 10).keyBy(v -> v % 3).map(v -> v + 1).name("keyed-map").sinkTo(new DiscardingSink<>());
        return env.getJobGraph("pipeline-options");
    }

    private static JobVertex vertexNamed(JobGraph job, String part) {
        return job.getVertices().stream().filter(v -> v.getName().contains(part)).findFirst().orElseThrow();
    }

    private static StreamExecutionEnvironment environmentWith(Map<String, String> keys) {
        return StreamExecutionEnvironment.getExecutionEnvironment(Configuration.fromMap(keys));
    }

    @Test
    void withoutTheKeysTheJobGetsFlinksDefaults() {
        JobGraph job = keyedJob(environmentWith(Map.of()));
        assertThat(job.getExecutionConfig().isObjectReuseEnabled()).isFalse();
        assertThat(job.getExecutionConfig().getAutoWatermarkInterval()).isEqualTo(200);
        assertThat(job.getVertices()).hasSize(2);
        assertThat(vertexNamed(job, "keyed-map").getMaxParallelism()).isEqualTo(128);
    }

    @Test
    void theKeysOfAConfigurationReachTheCompiledJob() {
        JobGraph job = keyedJob(environmentWith(Map.of(
                "pipeline.object-reuse", "true",
                "pipeline.auto-watermark-interval", "50 ms",
                "pipeline.max-parallelism", "256",
                "pipeline.operator-chaining.enabled", "false")));
        assertThat(job.getExecutionConfig().isObjectReuseEnabled()).isTrue();
        assertThat(job.getExecutionConfig().getAutoWatermarkInterval()).isEqualTo(50);
        assertThat(job.getVertices()).as("every operator a task of its own").hasSize(3);
        assertThat(vertexNamed(job, "keyed-map").getMaxParallelism()).isEqualTo(256);
    }

    @Test
    void theKeyBeforeFlink120StillTurnsChainingOff() {
        assertThat(keyedJob(environmentWith(Map.of("pipeline.operator-chaining", "false"))).getVertices()).hasSize(3);
    }

    @Test
    void theTypedOptionsSetTheSameKeys() {
        Configuration conf = new Configuration();
        conf.set(PipelineOptions.OBJECT_REUSE, true);
        conf.set(PipelineOptions.AUTO_WATERMARK_INTERVAL, Duration.ofSeconds(1));
        conf.set(PipelineOptions.MAX_PARALLELISM, 64);
        conf.set(PipelineOptions.NAME, "nightly-report");
        assertThat(conf.toMap()).containsKeys("pipeline.object-reuse", "pipeline.auto-watermark-interval",
                "pipeline.max-parallelism", "pipeline.name");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        assertThat(env.getConfig().isObjectReuseEnabled()).isTrue();
        assertThat(env.getConfig().getAutoWatermarkInterval()).isEqualTo(1000);
        assertThat(env.getMaxParallelism()).isEqualTo(64);
    }

    @Test
    void pipelineNameNamesAJobRunWithoutAName() {
        StreamExecutionEnvironment env = environmentWith(Map.of("pipeline.name", "nightly-report"));
        env.fromSequence(1, 3).sinkTo(new DiscardingSink<>());
        assertThat(env.getStreamGraph(false).getJobName()).isEqualTo("nightly-report");
        assertThat(env.getStreamGraph("given").getJobName()).as("a name the program gives wins").isEqualTo("given");

        StreamExecutionEnvironment unnamed = environmentWith(Map.of());
        unnamed.fromSequence(1, 3).sinkTo(new DiscardingSink<>());
        assertThat(unnamed.getStreamGraph(false).getJobName()).isEqualTo(StreamExecutionEnvironment.DEFAULT_JOB_NAME);
    }

    @Test
    void configureReplacesWhatItSetsAndTheProgramHasTheLastWord() {
        StreamExecutionEnvironment env = environmentWith(Map.of("pipeline.object-reuse", "true"));
        env.configure(Configuration.fromMap(Map.of("state.backend.type", "hashmap")));
        assertThat(env.getConfig().isObjectReuseEnabled()).as("a key configure does not set stays").isTrue();

        env.configure(Configuration.fromMap(
                Map.of("pipeline.object-reuse", "false", "pipeline.max-parallelism", "512")));
        assertThat(env.getConfig().isObjectReuseEnabled()).isFalse();
        assertThat(env.getMaxParallelism()).isEqualTo(512);

        env.getConfig().enableObjectReuse();
        env.setMaxParallelism(1024);
        JobGraph job = keyedJob(env);
        assertThat(job.getExecutionConfig().isObjectReuseEnabled()).isTrue();
        assertThat(vertexNamed(job, "keyed-map").getMaxParallelism()).isEqualTo(1024);

        env.configure(Configuration.fromMap(Map.of("pipeline.max-parallelism", "-1")));
        assertThat(env.getMaxParallelism()).as("-1: derived from the parallelism again").isEqualTo(-1);
    }

    @Test
    void genericTypesOffMakesAKryoTypeFailWhenTheJobIsBuilt() {
        StreamExecutionEnvironment env = environmentWith(Map.of("pipeline.generic-types", "false"));
        env.getConfig().registerKryoType(Sku.class);
        env.fromSequence(1, 3).map(v -> new Sku(v), Types.GENERIC(Sku.class)).sinkTo(new DiscardingSink<>());
        assertThatThrownBy(() -> env.getJobGraph("kryo"))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("generic types are disabled")
                .hasMessageContaining(Sku.class.getName());
    }

    @Test
    void aValueOutOfRangeOrUnreadableFailsNamingItsKey() {
        assertThatThrownBy(() -> environmentWith(Map.of("pipeline.max-parallelism", "0")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pipeline.max-parallelism")
                .hasMessageContaining("got 0");
        assertThatThrownBy(() -> environmentWith(Map.of("pipeline.max-parallelism", "40000")))
                .hasMessageContaining("pipeline.max-parallelism")
                .hasMessageContaining("32768");
        assertThatThrownBy(() -> environmentWith(Map.of("pipeline.object-reuse", "sometimes")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pipeline.object-reuse");
        assertThatThrownBy(() -> environmentWith(Map.of("pipeline.auto-watermark-interval", "soon")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("pipeline.auto-watermark-interval");
    }

    /** Not a POJO (no default constructor): a generic type, serialized by Kryo when that is allowed. */
    static final class Sku {
        final long id;

        Sku(long id) {
            this.id = id;
        }
    }
}
