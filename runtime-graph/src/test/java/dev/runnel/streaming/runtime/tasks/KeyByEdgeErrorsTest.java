package dev.runnel.streaming.runtime.tasks;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A keyBy whose key selector fails, or returns null, on the sending side fails the job with an error that names
 * the edge and the record, whether the selector throws or gives no key.
 */
@Timeout(60)
class KeyByEdgeErrorsTest {

    private static String throwingKey(String word) {
        if (word.equals("w13")) {
            throw new IllegalArgumentException("no key for " + word);
        }
        return word;
    }

    private static String nullKey(String word) {
        return word.equals("w17") ? null : word;
    }

    @Test
    void aFailingSelectorNamesTheEdgeAndTheRecord() {
        assertThatThrownBy(() -> run(KeyByEdgeErrorsTest::throwingKey))
                .hasStackTraceContaining("The key selector of a keyBy failed on a record on edge")
                .hasStackTraceContaining("'w13'")
                .hasStackTraceContaining("no key for w13");
    }

    @Test
    void aNullKeyNamesTheEdgeAndTheRecord() {
        assertThatThrownBy(() -> run(KeyByEdgeErrorsTest::nullKey))
                .hasStackTraceContaining("returned null; every record needs a key on edge")
                .hasStackTraceContaining("'w17'");
    }

    /** Words w0..w19 through a keyBy by {@code selector} at parallelism 2. */
    private static void run(KeySelector<String, String> selector) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(0, 19).map(i -> "w" + i).returns(Types.STRING)
                .keyBy(selector, Types.STRING)
                .addSink(new SinkFunction<String>() {});
        env.execute("keyBy errors");
    }
}
