package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.v2.DiscardingSink;
import org.junit.jupiter.api.Test;

/** Flink's {@code state.backend.type} and Runnel's older {@code state.backend} select the store the engine runs. */
class StateBackendTypeKeyTest {

    private static String storeFor(String key, String value) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(
                new Configuration().setString(key, value));
        env.fromSequence(1, 3).sinkTo(new DiscardingSink<>());
        JobGraph job = env.getJobGraph("store");
        return EmbeddedRuntime.stateBackend(job, job.getConfiguration()).getName();
    }

    @Test
    void flinksNamesAndRunnelsOlderOnesPickTheStore() {
        assertThat(storeFor("state.backend.type", "hashmap")).isEqualTo("heap");
        assertThat(storeFor("state.backend.type", "rocksdb")).isEqualTo("rocksdb");
        assertThat(storeFor("state.backend", "heap")).isEqualTo("heap");
        assertThat(storeFor("state.backend", "rocksdb")).isEqualTo("rocksdb");
        assertThat(storeFor("unrelated", "x")).isEqualTo("heap");
    }
}
