package dev.runnel.configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.runtime.state.StateBackendFactory;
import org.junit.jupiter.api.Test;

class StateBackendOptionsTest {

    @Test
    void flinksKeyAndNamesAndRunnelsOlderOnesSelectTheSameFactory() {
        assertThat(new Configuration().get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
        assertThat(new Configuration().get(StateBackendFactory.STATE_BACKEND)).isEqualTo("heap");
        String[][] cases = {
            {"state.backend.type", "hashmap", "heap"}, {"state.backend.type", "HashMap", "heap"},
            {"state.backend.type", "rocksdb", "rocksdb"}, {"state.backend.type", "heap", "heap"},
            {"state.backend", "heap", "heap"}, {"state.backend", "rocksdb", "rocksdb"},
            {"state.backend", "hashmap", "heap"}, {"state.backend.type", "my-store", "my-store"},
            // Flink 1.x's legacy names of heap stores (MemoryStateBackend, FsStateBackend)
            {"state.backend", "filesystem", "heap"}, {"state.backend.type", "jobmanager", "heap"},
        };
        for (String[] c : cases) {
            Configuration conf = new Configuration().setString(c[0], c[1]);
            assertThat(conf.get(StateBackendFactory.STATE_BACKEND)).as("%s: %s", c[0], c[1]).isEqualTo(c[2]);
        }
        Configuration both = new Configuration().setString("state.backend", "heap")
                .setString("state.backend.type", "rocksdb");
        assertThat(both.get(StateBackendFactory.STATE_BACKEND)).isEqualTo("rocksdb");
    }

    @Test
    void writingTheEngineOptionStoresFlinksName() {
        Configuration conf = new Configuration().set(StateBackendFactory.STATE_BACKEND, "heap");
        assertThat(conf.toMap()).containsOnly(java.util.Map.entry("state.backend.type", "hashmap"));
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("hashmap");
        conf.set(StateBackendFactory.STATE_BACKEND, "rocksdb");
        assertThat(conf.get(StateBackendOptions.STATE_BACKEND)).isEqualTo("rocksdb");
        assertThatThrownBy(() -> new Configuration().setString("state.backend.type", " ").get(
                StateBackendFactory.STATE_BACKEND)).hasMessageContaining("'state.backend.type'")
                .hasMessageContaining("'hashmap' or 'rocksdb'");
    }

    @Test
    void recoveryOptionsReadFlinksOlderKeys() {
        Configuration conf = new Configuration().setString("execution.savepoint.path", "file:///sp/1")
                .setString("execution.savepoint.ignore-unclaimed-state", "true");
        assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_PATH)).isEqualTo("file:///sp/1");
        assertThat(conf.get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE)).isTrue();
        assertThat(new Configuration().get(StateRecoveryOptions.SAVEPOINT_PATH)).isNull();
        assertThat(new Configuration().get(StateRecoveryOptions.SAVEPOINT_IGNORE_UNCLAIMED_STATE)).isFalse();
    }
}
