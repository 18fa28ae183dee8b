package dev.runnel.examples;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.examples.fraud.FraudDetection;
import dev.runnel.examples.fraud.FraudDetection.Alert;
import dev.runnel.examples.fraud.FraudDetection.Transaction;
import dev.runnel.examples.windowing.TopPages;
import dev.runnel.examples.windowing.TopPages.PageCount;
import dev.runnel.examples.windowing.TopPages.PageView;
import dev.runnel.examples.windowing.TopPages.Ranking;
import dev.runnel.examples.wordcount.WordCount;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The example jobs end to end on the embedded runtime, checked against a sequential computation. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class ExamplesTest {

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void wordCountOfTheBuiltInText() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Tuple2<String, Integer>> counts = collect(WordCount.counts(env.fromElements(WordCount.TEXT)));

        Map<String, Integer> expected = new TreeMap<>();
        int words = 0;
        for (String line : WordCount.TEXT) {
            for (String w : line.toLowerCase(Locale.ROOT).split("\\W+")) {
                if (!w.isEmpty()) {
                    expected.merge(w, 1, Integer::sum);
                    words++;
                }
            }
        }
        assertThat(counts).hasSize(words);
        Map<String, Integer> finalCounts = new TreeMap<>();
        for (Tuple2<String, Integer> c : counts) {
            finalCounts.merge(c.f0, c.f1, Math::max);
        }
        assertThat(finalCounts).isEqualTo(expected);
        assertThat(finalCounts.get("to")).isEqualTo(9);
        // the rolling counts of one word arrive in order 1, 2, 3, ...
        List<Integer> toCounts = counts.stream().filter(c -> c.f0.equals("to")).map(c -> c.f1).toList();
        assertThat(toCounts).containsExactly(1, 2, 3, 4, 5, 6, 7, 8, 9);
    }

    @Test
    void wordCountOfAFile(@TempDir java.nio.file.Path dir) throws Exception {
        Files.writeString(dir.resolve("a.txt"), "b a b\nc b\n");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<String> lines = env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(),
                new Path(dir.toString())).build(), WatermarkStrategy.noWatermarks(), "file");
        Map<String, Integer> finalCounts = new TreeMap<>();
        for (Tuple2<String, Integer> c : collect(WordCount.counts(lines))) {
            finalCounts.merge(c.f0, c.f1, Math::max);
        }
        assertThat(finalCounts).containsExactly(Map.entry("a", 1), Map.entry("b", 3), Map.entry("c", 1));
    }

    @Test
    void wordCountOfAMissingFileFailsNamingThePath(@TempDir java.nio.file.Path dir) {
        java.nio.file.Path missing = dir.resolve("nope.txt");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<String> lines = env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(),
                new Path(missing.toString())).build(), WatermarkStrategy.noWatermarks(), "file");
        WordCount.counts(lines).print();
        assertThatThrownBy(() -> env.execute("missing")).hasMessageContaining(missing.toString());
    }

    @Test
    void topPagesMatchesABruteForceRanking() throws Exception {
        List<PageView> views = TopPages.views(20_000, 11);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Ranking> rankings = collect(TopPages.top(env.fromCollection(views), 3));

        long window = TopPages.WINDOW.toMillis();
        Map<Long, Map<String, Long>> counts = new TreeMap<>();
        for (PageView v : views) {
            long end = Math.floorDiv(v.timestamp(), window) * window + window;
            counts.computeIfAbsent(end, e -> new HashMap<>()).merge(v.page(), 1L, Long::sum);
        }
        Map<Long, List<PageCount>> expected = new TreeMap<>();
        counts.forEach((end, perPage) -> expected.put(end, perPage.entrySet().stream()
                .map(e -> new PageCount(e.getKey(), end, e.getValue()))
                .sorted(Comparator.comparingLong(PageCount::views).reversed().thenComparing(PageCount::page))
                .limit(3).toList()));
        Map<Long, List<PageCount>> actual = new TreeMap<>();
        for (Ranking r : rankings) {
            assertThat(actual.put(r.windowEnd(), r.top())).as("one ranking per window").isNull();
        }
        assertThat(actual).isEqualTo(expected);
    }

    @Test
    void fraudDetectionMatchesASequentialScan() throws Exception {
        List<Transaction> transactions = FraudDetection.transactions(20_000, 3);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<Alert> alerts = collect(FraudDetection.alerts(env.fromCollection(transactions)));

        Map<Long, Long> smallAt = new HashMap<>();
        List<Alert> expected = new ArrayList<>();
        for (Transaction tx : transactions) {
            Long since = smallAt.get(tx.accountId());
            if (since != null) {
                if (tx.timestamp() <= since + FraudDetection.ONE_MINUTE && tx.amount() > FraudDetection.LARGE_AMOUNT) {
                    expected.add(new Alert(tx.accountId(), tx.timestamp(), tx.amount()));
                }
                smallAt.remove(tx.accountId());
            }
            if (tx.amount() < FraudDetection.SMALL_AMOUNT) {
                smallAt.put(tx.accountId(), tx.timestamp());
            }
        }
        assertThat(expected).as("the data set must exercise the rule").isNotEmpty();
        assertThat(alerts).containsExactlyInAnyOrderElementsOf(expected);
    }
}
