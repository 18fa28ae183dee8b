package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.AssignerWithPeriodicWatermarks;
import dev.runnel.streaming.api.functions.AssignerWithPunctuatedWatermarks;
import dev.runnel.streaming.api.functions.windowing.AllWindowFunction;
import dev.runnel.streaming.api.watermark.Watermark;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import dev.runnel.streaming.api.windowing.windows.TimeWindow;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.io.Serializable;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import javax.annotation.Nullable;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The deprecated DataStream API of Flink 1.20 that real programs still use (Flink's own streaming
 * examples among them): {@code fromCollection(iterator, type)}, {@code readTextFile},
 * {@code writeAsText} and the pre-1.11 watermark assigners, used as Flink's documentation shows them.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LegacyDataStreamApiTest {

    @TempDir
    Path dir;

    /** A serializable iterator of 1..n, as Flink's examples write their generators. */
    static final class Counter implements Iterator<Integer>, Serializable {
        private final int n;
        private int next = 1;

        Counter(int n) {
            this.n = n;
        }

        @Override
        public boolean hasNext() {
            return next <= n;
        }

        @Override
        public Integer next() {
            return next++;
        }
    }

    @Test
    void fromCollectionOfAnIteratorEmitsItsElementsInOrder() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStreamSource<Integer> numbers = env.fromCollection(new Counter(1000), Types.INT);
        assertThat(numbers.executeAndCollect(2000)).isEqualTo(IntStream.rangeClosed(1, 1000).boxed().toList());
        assertThat(env.fromCollection(new Counter(3), Integer.class).map(i -> i * 10).executeAndCollect(10))
                .containsExactlyInAnyOrder(10, 20, 30);
    }

    @Test
    void fromCollectionRefusesAnIteratorThatCannotTravelWithTheJob() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        Iterator<Integer> local = List.of(1, 2).iterator();
        assertThatThrownBy(() -> env.fromCollection(local, Types.INT))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("must be serializable");
    }

    @Test
    void readTextFileReadsEveryLineOfAFileOrDirectory() throws Exception {
        Files.writeString(dir.resolve("a.txt"), "to be\nor not\n", StandardCharsets.UTF_8);
        Files.writeString(dir.resolve("b.txt"), "to be\r\n", StandardCharsets.UTF_8);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        assertThat(env.readTextFile(dir.toString()).executeAndCollect(10))
                .containsExactlyInAnyOrder("to be", "or not", "to be");
        assertThat(env.readTextFile(dir.resolve("a.txt").toString(), "ISO-8859-1").executeAndCollect(10))
                .containsExactly("to be", "or not");
        assertThatThrownBy(() -> env.readTextFile(" ")).hasMessage("The file path must not be null or blank.");
    }

    @Test
    void writeAsTextWritesOneFileAtParallelismOneAndADirectoryOfNumberedFilesAbove() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        Path single = dir.resolve("single.txt");
        env.fromElements(Tuple2.of("a", 1), Tuple2.of("b", 2)).writeAsText(single.toString()).setParallelism(1);
        Path many = dir.resolve("many");
        env.fromSequence(1, 100).writeAsText(many.toString()).setParallelism(2);
        env.execute();

        assertThat(Files.readString(single)).isEqualTo("(a,1)\n(b,2)\n");
        try (var files = Files.list(many)) {
            assertThat(files.map(f -> f.getFileName().toString()).sorted().toList()).containsExactly("1", "2");
        }
        List<Long> written = new ArrayList<>();
        for (String file : List.of("1", "2")) {
            Files.readAllLines(many.resolve(file)).forEach(line -> written.add(Long.parseLong(line)));
        }
        assertThat(written).containsExactlyInAnyOrderElementsOf(rangeOf(1, 100));
    }

    @Test
    void writeAsTextInOverwriteModeReplacesWhatAnEarlierRunLeft() throws Exception {
        Path out = dir.resolve("out");
        writeNumbers(out, 1, 300, 3);
        assertThat(numberedFiles(out)).containsExactly("1", "2", "3");

        writeNumbers(out, 1, 50, 2); // narrower: file 3 of the first run must go
        assertThat(numberedFiles(out)).containsExactly("1", "2");
        List<Long> second = new ArrayList<>();
        for (String file : List.of("1", "2")) {
            Files.readAllLines(out.resolve(file)).forEach(line -> second.add(Long.parseLong(line)));
        }
        assertThat(second).containsExactlyInAnyOrderElementsOf(rangeOf(1, 50));

        writeNumbers(out, 7, 9, 1); // a directory gives way to one file
        assertThat(Files.readAllLines(out)).containsExactly("7", "8", "9");

        writeNumbers(out, 1, 10, 2); // and the file to a directory
        assertThat(numberedFiles(out)).containsExactly("1", "2");
        assertThatThrownBy(() -> StreamExecutionEnvironment.createLocalEnvironment(1).fromSequence(1, 2)
                .writeAsText(out.toString(), dev.runnel.core.fs.FileSystem.WriteMode.NO_OVERWRITE))
                .hasMessageContaining("already exists");
    }

    private static void writeNumbers(Path out, long from, long to, int parallelism) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(parallelism);
        env.fromSequence(from, to).writeAsText(out.toString(), dev.runnel.core.fs.FileSystem.WriteMode.OVERWRITE)
                .setParallelism(parallelism);
        env.execute();
    }

    private static List<String> numberedFiles(Path directory) throws IOException {
        try (var files = Files.list(directory)) {
            return files.map(f -> f.getFileName().toString()).sorted().toList();
        }
    }

    private static List<Long> rangeOf(long from, long to) {
        List<Long> all = new ArrayList<>();
        for (long i = from; i <= to; i++) {
            all.add(i);
        }
        return all;
    }

    @Test
    void writeAsTextRefusesAPathThatExists() throws IOException {
        Path existing = Files.writeString(dir.resolve("out.txt"), "keep me");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        assertThatThrownBy(() -> env.fromElements(1).writeAsText(existing.toString()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("already exists");
        assertThat(Files.readString(existing)).isEqualTo("keep me");
    }

    /**
     * Flink's documentation example of a punctuated assigner: every event carries its timestamp, and
     * an event that "has a watermark marker" (here: the multiples of 100) advances the watermark to
     * its timestamp. The same instance extracts timestamps and decides watermarks.
     */
    static final class PunctuatedAssigner implements AssignerWithPunctuatedWatermarks<Long> {
        long extracted;

        @Override
        public long extractTimestamp(Long element, long previousElementTimestamp) {
            extracted++;
            return element * 10;
        }

        @Nullable
        @Override
        public Watermark checkAndGetNextWatermark(Long lastElement, long extractedTimestamp) {
            // Counting in extractTimestamp and checking here shows both calls reach one instance.
            return lastElement % 100 == 0 && extracted == lastElement ? new Watermark(extractedTimestamp) : null;
        }
    }

    /** Counts a window's elements as "start..end:count". */
    static final class CountAll implements AllWindowFunction<Long, String, TimeWindow> {
        @Override
        public void apply(TimeWindow window, Iterable<Long> values, Collector<String> out) {
            long n = 0;
            for (Long ignored : values) {
                n++;
            }
            out.collect(window.getStart() + ".." + window.getEnd() + ":" + n);
        }
    }

    @Test
    void aPunctuatedAssignerStampsRecordsAndEmitsItsWatermarks() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        // Timestamps 10..3000; windows of 1000 ms: [0,1000) holds 1..99, [1000,2000) 100..199, ...
        List<String> windows = env.fromSequence(1, 300)
                .assignTimestampsAndWatermarks(new PunctuatedAssigner())
                .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(1000)))
                .apply(new CountAll())
                .executeAndCollect(10);
        assertThat(windows).containsExactly("0..1000:99", "1000..2000:100", "2000..3000:100", "3000..4000:1");
    }

    /**
     * The documentation's periodic assigner: the watermark trails the largest timestamp seen by a
     * fixed bound ("BoundedOutOfOrdernessGenerator"). With in-order input nothing is late, so the
     * windows hold exactly the records of their range.
     */
    static final class BoundedOutOfOrderness implements AssignerWithPeriodicWatermarks<Long> {
        private long maxTimestamp = Long.MIN_VALUE + 5000;

        @Override
        public long extractTimestamp(Long element, long previousElementTimestamp) {
            long timestamp = element * 10;
            maxTimestamp = Math.max(maxTimestamp, timestamp);
            return timestamp;
        }

        @Nullable
        @Override
        public Watermark getCurrentWatermark() {
            return new Watermark(maxTimestamp - 5000);
        }
    }

    @Test
    void aPeriodicAssignerStampsRecordsAndEmitsItsWatermarks() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().setAutoWatermarkInterval(1);
        List<String> windows = env.fromSequence(0, 2999)
                .assignTimestampsAndWatermarks(new BoundedOutOfOrderness())
                .windowAll(TumblingEventTimeWindows.of(Duration.ofMillis(10_000)))
                .apply(new CountAll())
                .executeAndCollect(10);
        assertThat(windows.stream().sorted().collect(Collectors.joining(" ")))
                .isEqualTo("0..10000:1000 10000..20000:1000 20000..30000:1000");
    }
}
