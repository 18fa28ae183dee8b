package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.BatchExecutionOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.MemorySize;
import dev.runnel.configuration.RestartStrategyOptions;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.Collector;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * BATCH jobs decide the parallelism of operators the job left at the default from the bytes those operators
 * consume, as Flink's adaptive batch scheduler does; operators with a parallelism of their own keep it.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class AdaptiveBatchParallelismTest {

    /** Parallelism each operator saw, by the name given to {@link ParallelismProbe}. */
    private static final Map<String, Integer> SEEN = new ConcurrentHashMap<>();
    private static final AtomicBoolean FAIL_ONCE = new AtomicBoolean();

    @TempDir
    Path tmp;

    @BeforeEach
    void reset() {
        SEEN.clear();
        FAIL_ONCE.set(false);
    }

    private Configuration batch() {
        Configuration conf = new Configuration();
        conf.set(dev.runnel.configuration.ExecutionOptions.RUNTIME_MODE, RuntimeExecutionMode.BATCH);
        conf.setString("io.tmp.dirs", tmp.toString());
        return conf;
    }

    /** Flink's WordCount on its tiny built-in text: counted and printed at parallelism 1, lines without "N> ". */
    @Test
    void aSmallWordCountPrintsWithoutSubtaskPrefixes() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4, batch());
        env.fromData("to be or not to be", "that is the question")
                .flatMap((String line, Collector<Tuple2<String, Integer>> out) -> {
                    for (String word : line.split(" ")) {
                        out.collect(Tuple2.of(word, 1));
                    }
                })
                .returns(Types.TUPLE(Types.STRING, Types.INT))
                .keyBy(t -> t.f0)
                .sum(1)
                .print();
        List<String> lines = capturingStdout(env::execute);
        assertThat(lines).as("in the order of the keys' serialized bytes, as Flink's sorted batch input")
                .containsExactly("(be,2)", "(is,1)", "(or,1)", "(to,2)", "(not,1)", "(the,1)", "(that,1)",
                        "(question,1)");
    }

    /**
     * As in Flink's BATCH execution, a keyed operator reads its input sorted by serialized key (a String's length
     * comes first, so "a" and "b" before "cc"), each key's records by timestamp, and a key's timers fire before
     * the next key's first record.
     */
    @Test
    void aKeyedOperatorSeesItsInputSortedByKeyThenTimeAndFinishesEachKeyBeforeTheNext() throws Exception {
        assertThat(keyedEvents(batch())).containsExactly("a@2", "a@7", "timer a@102", "timer a@107", "b@3", "b@9",
                "timer b@103", "timer b@109", "cc@1", "cc@5", "timer cc@101", "timer cc@105");
    }

    @Test
    void withSortedInputsOffAKeyedOperatorSeesEachKeyInArrivalOrderAndAllTimersFireAtTheEnd() throws Exception {
        Configuration conf = batch();
        conf.set(dev.runnel.configuration.ExecutionOptions.SORT_INPUTS, false);
        List<String> out = keyedEvents(conf);
        // a blocking exchange keeps each key's order (one subpartition per key group), not the order across keys
        assertThat(out.subList(0, 6)).containsExactlyInAnyOrder("cc@5", "b@9", "a@7", "cc@1", "a@2", "b@3");
        assertThat(out.indexOf("cc@5")).isLessThan(out.indexOf("cc@1"));
        assertThat(out.indexOf("b@9")).isLessThan(out.indexOf("b@3"));
        assertThat(out.indexOf("a@7")).isLessThan(out.indexOf("a@2"));
        assertThat(out.subList(6, 12)).containsExactly("timer cc@101", "timer a@102", "timer b@103", "timer cc@105",
                "timer a@107", "timer b@109");
    }

    /**
     * Keyed events arriving out of key and time order; the operator emits each record and, from a timer 100 after
     * it, "timer"; the parallelism decided is 1, so the order it emits in is the order it processed in.
     */
    private static List<String> keyedEvents(Configuration conf) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4, conf);
        List<String> out = new ArrayList<>();
        env.fromData(Tuple2.of("cc", 5L), Tuple2.of("b", 9L), Tuple2.of("a", 7L), Tuple2.of("cc", 1L),
                        Tuple2.of("a", 2L), Tuple2.of("b", 3L))
                .assignTimestampsAndWatermarks(dev.runnel.api.common.eventtime.WatermarkStrategy
                        .<Tuple2<String, Long>>forMonotonousTimestamps().withTimestampAssigner((e, ts) -> e.f1))
                .keyBy(e -> e.f0)
                .process(new dev.runnel.streaming.api.functions.KeyedProcessFunction<String, Tuple2<String, Long>,
                        String>() {
                    @Override
                    public void processElement(Tuple2<String, Long> e, Context ctx, Collector<String> collector) {
                        collector.collect(e.f0 + "@" + ctx.timestamp());
                        ctx.timerService().registerEventTimeTimer(ctx.timestamp() + 100);
                    }

                    @Override
                    public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> collector) {
                        collector.collect("timer " + ctx.getCurrentKey() + "@" + timestamp);
                    }
                })
                .executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void withAdaptiveParallelismOffTheDefaultParallelismPrintsPrefixes() throws Exception {
        Configuration conf = batch();
        conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED, false);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4, conf);
        env.fromData("a", "b", "c", "d", "e", "f", "g", "h").rebalance().print();
        List<String> lines = capturingStdout(env::execute);
        assertThat(lines).hasSize(8).allMatch(line -> line.matches("[1-4]> [a-h]"));
    }

    /**
     * Longs cost 16 bytes each in a blocking partition (timestamp and value): 150 of them at 1 KiB per subtask call
     * for ceil(2400 / 1024) = 3 subtasks, 1000 of them for 16, capped at the default parallelism 4; the keyed count
     * after it is exact either way and gets its own decision.
     */
    @Test
    void theParallelismFollowsTheBytesConsumedWithinTheBounds() throws Exception {
        assertThat(runCounting(150, null)).isEqualTo(expectedCounts(150));
        assertThat(SEEN).containsEntry("map", 3);
        SEEN.clear();
        assertThat(runCounting(1000, null)).isEqualTo(expectedCounts(1000));
        assertThat(SEEN).containsEntry("map", 4);
        SEEN.clear();
        assertThat(runCounting(1000, 2)).isEqualTo(expectedCounts(1000));
        assertThat(SEEN).as("max-parallelism bounds it").containsEntry("map", 2);
    }

    @Test
    void anOperatorWithItsOwnParallelismKeepsIt() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4, batch());
        List<Long> out = new ArrayList<>();
        env.fromSequence(0, 9).setParallelism(1)
                .map(new ParallelismProbe("fixed")).setParallelism(3)
                .map(new ParallelismProbe("default"))
                .executeAndCollect().forEachRemaining(out::add);
        assertThat(out).containsExactlyInAnyOrderElementsOf(Stream.iterate(0L, i -> i + 1).limit(10).toList());
        assertThat(SEEN).containsEntry("fixed", 3).containsEntry("default", 1);
    }

    @Test
    void aFailedAttemptRunsAgainFromItsInputWithExactResults() throws Exception {
        FAIL_ONCE.set(true);
        Configuration conf = batch();
        conf.set(RestartStrategyOptions.RESTART_STRATEGY, "fixed-delay");
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_ATTEMPTS, 2);
        conf.set(RestartStrategyOptions.RESTART_STRATEGY_FIXED_DELAY_DELAY, Duration.ofMillis(10));
        assertThat(runCounting(conf, 500, null)).isEqualTo(expectedCounts(500));
        assertThat(FAIL_ONCE).as("the failure happened").isFalse();
    }

    @Test
    void theBlockingFilesAreGoneWhenTheJobEnds() throws Exception {
        runCounting(300, null);
        try (Stream<Path> left = Files.walk(tmp)) {
            assertThat(left.filter(Files::isRegularFile).toList()).isEmpty();
        }
    }

    private Map<Long, Long> runCounting(int records, Integer maxParallelism) throws Exception {
        return runCounting(batch(), records, maxParallelism);
    }

    /** Numbers 0..n-1 from one reader, a probed map, counted per key (n mod 7). */
    private Map<Long, Long> runCounting(Configuration conf, int records, Integer maxParallelism) throws Exception {
        conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_AVG_DATA_VOLUME_PER_TASK, MemorySize.parse("1kb"));
        if (maxParallelism != null) {
            conf.set(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MAX_PARALLELISM, maxParallelism);
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4, conf);
        DataStream<Tuple2<Long, Long>> counts = env.fromSequence(0, records - 1).setParallelism(1)
                .map(new ParallelismProbe("map"))
                .map(n -> Tuple2.of(n % 7, 1L)).returns(Types.TUPLE(Types.LONG, Types.LONG))
                .keyBy(t -> t.f0)
                .sum(1);
        Map<Long, Long> result = new HashMap<>();
        counts.executeAndCollect().forEachRemaining(t -> assertThat(result.put(t.f0, t.f1)).isNull());
        return result;
    }

    private static Map<Long, Long> expectedCounts(int records) {
        Map<Long, Long> expected = new HashMap<>();
        for (long n = 0; n < records; n++) {
            expected.merge(n % 7, 1L, Long::sum);
        }
        return expected;
    }

    private static List<String> capturingStdout(ThrowingRunnable job) throws Exception {
        PrintStream original = System.out;
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(bytes, true, StandardCharsets.UTF_8));
        try {
            job.run();
        } finally {
            System.setOut(original);
        }
        // the test class path has logback without a configuration: its default logs to stdout too
        return bytes.toString(StandardCharsets.UTF_8).lines()
                .filter(l -> !l.isBlank() && !l.matches("\\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\[.*")).toList();
    }

    @FunctionalInterface
    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** Passes numbers on and records its parallelism; fails once after 100 records when {@link #FAIL_ONCE} is set. */
    private static final class ParallelismProbe extends RichMapFunction<Long, Long> {
        private final String name;
        private int seen;

        ParallelismProbe(String name) {
            this.name = name;
        }

        @Override
        public Long map(Long value) {
            SEEN.put(name, getRuntimeContext().getNumberOfParallelSubtasks());
            if (++seen == 100 && FAIL_ONCE.compareAndSet(true, false)) {
                throw new IllegalStateException("failing once on purpose");
            }
            return value;
        }
    }
}
