package dev.runnel.connector.file.sink;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiterStrategy;
import dev.runnel.configuration.Configuration;
import dev.runnel.connector.datagen.source.DataGeneratorSource;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.stream.Collectors;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * The file sink end to end with real checkpoints and injected failures: readers of the committed files see
 * every record exactly once (at least once in AT_LEAST_ONCE mode), on both stores.
 */
@Timeout(120)
class FileSinkExactlyOnceTest {

    private static final int RECORDS = 20_000;
    private static final Set<Long> FAIL_AT = Set.of(6_007L, 13_011L);
    static final Set<Long> FAILED = ConcurrentHashMap.newKeySet();

    @TempDir
    Path dir;

    @BeforeEach
    void reset() {
        FAILED.clear();
    }

    /**
     * A task fails after another sink subtask reached the end of its input: that subtask's last files must not
     * be committed at its end (the restart replays their records), only by the job's final checkpoint.
     */
    @org.junit.jupiter.api.Test
    void aFailureAfterAnotherSinkEndedDoesNotDuplicateItsLastFiles() throws Exception {
        Path output = dir.resolve("out");
        Configuration conf = new Configuration();
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        conf.setString("execution.checkpointing.interval", "100 ms");
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "2");
        conf.setString("restart-strategy.fixed-delay.delay", "10 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        long last = 3_999;
        env.fromSource(new DataGeneratorSource<>(i -> i, last + 1, RateLimiterStrategy.perSecond(8_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(v -> v % 7)
                .map(v -> {
                    if (v == last && FAILED.add(v)) {
                        // Give the other sink subtask time to reach the end of its input first.
                        Thread.sleep(500);
                        throw new IllegalStateException("injected failure at the last record");
                    }
                    return Long.toString(v);
                })
                .sinkTo(FileSink.forRowFormat(new dev.runnel.core.fs.Path(output.toString()),
                        new SimpleStringEncoder<String>("UTF-8")).build());
        env.execute("failure at the end");

        assertThat(FAILED).containsExactly(last);
        Map<String, Long> seen = SinkFiles.visibleContents(output).stream()
                .flatMap(content -> Arrays.stream(content.split("\n")))
                .filter(line -> !line.isEmpty())
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(seen).hasSize((int) last + 1);
        assertThat(seen.values()).allSatisfy(count -> assertThat(count).isEqualTo(1L));
    }

    @ParameterizedTest(name = "{0} {1}")
    @CsvSource({"hashmap, EXACTLY_ONCE", "rocksdb, EXACTLY_ONCE", "hashmap, AT_LEAST_ONCE"})
    void committedFilesHoldEveryRecordOnce(String backend, String mode) throws Exception {
        Path output = dir.resolve("out");
        Configuration conf = new Configuration();
        conf.setString("state.backend.type", backend);
        conf.setString("execution.checkpointing.dir", dir.resolve("checkpoints").toString());
        conf.setString("execution.checkpointing.interval", "150 ms");
        conf.setString("execution.checkpointing.mode", mode);
        conf.setString("restart-strategy.type", "fixed-delay");
        conf.setString("restart-strategy.fixed-delay.attempts", "5");
        conf.setString("restart-strategy.fixed-delay.delay", "10 ms");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(2);
        env.fromSource(new DataGeneratorSource<>(i -> i, RECORDS, RateLimiterStrategy.perSecond(10_000), Types.LONG),
                        WatermarkStrategy.noWatermarks(), "numbers")
                .keyBy(v -> v % 7)
                .map(v -> {
                    if (FAIL_AT.contains(v) && FAILED.add(v)) {
                        throw new IllegalStateException("injected failure at " + v);
                    }
                    return Long.toString(v);
                })
                .sinkTo(FileSink.forRowFormat(new dev.runnel.core.fs.Path(output.toString()),
                                new SimpleStringEncoder<String>("UTF-8"))
                        // small parts, so that several roll and wait for their checkpoint
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(
                                dev.runnel.configuration.MemorySize.parse("2kb")).build())
                        .build());
        env.execute("file sink " + backend + " " + mode);

        assertThat(FAILED).hasSize(FAIL_AT.size());
        Map<String, Long> seen = SinkFiles.visibleContents(output).stream()
                .flatMap(content -> Arrays.stream(content.split("\n")))
                .filter(line -> !line.isEmpty())
                .collect(Collectors.groupingBy(Function.identity(), Collectors.counting()));
        assertThat(seen).hasSize(RECORDS);
        for (long v = 0; v < RECORDS; v++) {
            assertThat(seen).containsKey(Long.toString(v));
        }
        if (mode.equals("EXACTLY_ONCE")) {
            assertThat(seen.values()).allSatisfy(count -> assertThat(count).isEqualTo(1L));
        }
    }
}
