package dev.runnel.connector.file.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.configuration.MemorySize;
import dev.runnel.core.fs.Path;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.streaming.api.functions.sink.filesystem.OutputFileConfig;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners.DateTimeBucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import dev.runnel.streaming.api.operators.sink.SinkWriterOperator;
import dev.runnel.streaming.util.OneInputStreamOperatorTestHarness;
import dev.runnel.util.InstantiationUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The file sink's writer and committer in one subtask (the operator harness): rolling, names, buckets. */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSinkTest {

    static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @TempDir
    java.nio.file.Path dir;

    @Test
    void writesHiddenInProgressThenCommitsAtTheEndOfInput() throws Exception {
        try (var harness = harness(sink(DefaultRollingPolicy.builder().build()))) {
            harness.open();
            harness.processElement("a");
            harness.processElement("ü");

            assertThat(SinkFiles.visible(dir)).isEmpty();
            assertThat(SinkFiles.hidden(dir)).singleElement().satisfies(f -> assertThat(SinkFiles.name(f))
                    .matches("\\.part-" + UUID + "-0\\.txt\\.inprogress\\." + UUID));

            harness.endInput();
            assertThat(SinkFiles.hidden(dir)).isEmpty();
            assertThat(SinkFiles.visible(dir)).singleElement().satisfies(f -> {
                assertThat(SinkFiles.name(f)).matches("part-" + UUID + "-0\\.txt");
                assertThat(Files.readString(f)).isEqualTo("a\nü\n");
            });
        }
    }

    @Test
    void rolledPartsStayHiddenUntilCommittedAndHoldWholeRecords() throws Exception {
        try (var harness = harness(sink(DefaultRollingPolicy.builder().withMaxPartSize(10).build()))) {
            harness.open();
            for (int i = 0; i < 10; i++) {
                harness.processElement("rec" + i); // 5 bytes each: two per part
            }
            assertThat(SinkFiles.visible(dir)).as("rolled parts are pending, not committed").isEmpty();
            assertThat(SinkFiles.hidden(dir)).hasSize(5);

            harness.endInput();
            List<java.nio.file.Path> parts = SinkFiles.visible(dir);
            assertThat(parts).hasSize(5).extracting(SinkFiles::name).allMatch(n -> n.matches("part-" + UUID + "-[0-4]\\.txt"));
            StringBuilder all = new StringBuilder();
            for (java.nio.file.Path part : parts) {
                String content = Files.readString(part);
                assertThat(content).as("%s", part).hasSize(10).endsWith("\n");
                all.append(content);
            }
            assertThat(all.toString()).isEqualTo(IntStream.range(0, 10).mapToObj(i -> "rec" + i + "\n").collect(Collectors.joining()));
        }
    }

    @Test
    void theRecordThatCrossesTheSizeStaysInItsPart() throws Exception {
        try (var harness = harness(sink(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofBytes(4)).build()))) {
            harness.open();
            harness.processElement("0123456789");
            harness.processElement("x");
            harness.endInput();
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("0123456789\n", "x\n");
        }
    }

    @Test
    void rollsByRolloverIntervalAndByInactivity() throws Exception {
        try (var harness = harness(sink(DefaultRollingPolicy.builder()
                .withRolloverInterval(Duration.ofSeconds(10))
                .withInactivityInterval(Duration.ofSeconds(3))
                .build()))) {
            harness.open();
            for (long t = 1_000; t <= 9_000; t += 2_000) {
                harness.setProcessingTime(t);
                harness.processElement("at" + t);
            }
            harness.setProcessingTime(11_000); // 10 s since the part opened: roll before the record
            harness.processElement("f");
            harness.setProcessingTime(14_000); // 3 s without records: inactivity roll before g
            harness.processElement("g");
            harness.setProcessingTime(17_500); // the barrier's non-final flush rolls an inactive part too
            harness.prepareSnapshotPreBarrier(1);

            assertThat(SinkFiles.hidden(dir)).hasSize(3);
            harness.snapshot(1, 17_500);
            harness.notifyOfCompletedCheckpoint(1);
            assertThat(SinkFiles.hidden(dir)).isEmpty();
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("at1000\nat3000\nat5000\nat7000\nat9000\n", "f\n", "g\n");
        }
    }

    @Test
    void theBucketCheckTimerRollsPartsThatGetNoMoreRecords() throws Exception {
        FileSink<String> sink = FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withRollingPolicy(DefaultRollingPolicy.builder().withInactivityInterval(Duration.ofSeconds(3)).build())
                .withBucketCheckInterval(1_000)
                .build();
        try (var harness = harness(sink)) {
            harness.open();
            harness.processElement("lonely");
            harness.setProcessingTime(2_000);
            harness.snapshot(1, 2_000);
            harness.notifyOfCompletedCheckpoint(1);
            assertThat(SinkFiles.visible(dir)).as("not inactive for 3 s yet").isEmpty();

            harness.setProcessingTime(3_000); // the check at 3 s rolls it; the next checkpoint commits it
            harness.snapshot(2, 3_000);
            harness.notifyOfCompletedCheckpoint(2);
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("lonely\n");
        }
    }

    @Test
    void theDefaultLayoutIsFlinksHourlyBucketAndPartNames() throws Exception {
        long now = Instant.parse("2024-05-01T13:45:00Z").toEpochMilli();
        String bucket = DateTimeFormatter.ofPattern("yyyy-MM-dd--HH").withZone(ZoneId.systemDefault())
                .format(Instant.ofEpochMilli(now));
        try (var harness = harness(FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>()).build())) {
            harness.setProcessingTime(now);
            harness.open();
            harness.processElement("x");
            harness.endInput();
            assertThat(SinkFiles.visible(dir)).singleElement().satisfies(f -> {
                assertThat(dir.relativize(f).toString()).matches("\\d{4}-\\d{2}-\\d{2}--\\d{2}/part-" + UUID + "-0")
                        .startsWith(bucket + "/");
                assertThat(Files.readString(f)).isEqualTo("x\n");
            });
        }
    }

    @Test
    void recordsGoToTheBucketsTheAssignerChooses() throws Exception {
        FileSink<String> sink = FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>())
                .withBucketAssigner(new DateTimeBucketAssigner<>("yyyy/MM/dd", ZoneId.of("UTC")))
                .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("events").withPartSuffix(".log").build())
                .build();
        try (var harness = harness(sink)) {
            harness.open();
            harness.setProcessingTime(Instant.parse("2024-01-31T23:59:00Z").toEpochMilli());
            harness.processElement("jan");
            harness.setProcessingTime(Instant.parse("2024-02-01T00:01:00Z").toEpochMilli());
            harness.processElement("feb");
            harness.endInput();
            assertThat(SinkFiles.visible(dir)).extracting(f -> dir.relativize(f).toString())
                    .hasSize(2)
                    .anyMatch(p -> p.matches("2024/01/31/events-" + UUID + "-0\\.log"))
                    .anyMatch(p -> p.matches("2024/02/01/events-" + UUID + "-0\\.log"));
        }
    }

    @Test
    void closeWithoutEndOfInputCommitsNothing() throws Exception {
        var harness = harness(sink(DefaultRollingPolicy.builder().withMaxPartSize(6).build()));
        harness.open();
        harness.processElement("one");
        harness.processElement("two");
        harness.processElement("three"); // rolls one+two (8 bytes >= 6): pending; three is in progress
        harness.close();
        assertThat(SinkFiles.visible(dir)).isEmpty();
        assertThat(SinkFiles.hidden(dir)).hasSize(2).allSatisfy(f -> assertThat(SinkFiles.name(f)).contains(".inprogress."));
    }

    @Test
    void createsAMissingOutputDirectory() throws Exception {
        java.nio.file.Path nested = dir.resolve("a/b/c");
        try (var harness = harness(FileSink.forRowFormat(new Path(nested.toString()), new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>()).build())) {
            harness.open();
            harness.processElement("x");
            harness.endInput();
            assertThat(SinkFiles.visibleContents(nested)).containsExactly("x\n");
        }
    }

    @Test
    void anOutputDirectoryThatCannotBeCreatedFailsNamingIt() throws IOException {
        java.nio.file.Path file = dir.resolve("occupied");
        Files.writeString(file, "a file, not a directory");
        FileSink<String> onFile = FileSink.forRowFormat(new Path(file.toString()), new SimpleStringEncoder<String>()).build();
        assertThatThrownBy(() -> onFile.createWriter(new FakeInitContext(3))).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a directory");
        FileSink<String> under = FileSink.forRowFormat(new Path(file + "/sub"), new SimpleStringEncoder<String>()).build();
        assertThatThrownBy(() -> under.createWriter(new FakeInitContext(3))).isInstanceOf(IOException.class)
                .hasMessageContaining(file + "/sub");
    }

    @Test
    void anEncoderThatClosesTheStreamDoesNotCloseThePart() throws Exception {
        Encoder<String> rude = (element, stream) -> {
            stream.write(element.getBytes(StandardCharsets.UTF_8));
            stream.close();
        };
        try (var harness = harness(FileSink.forRowFormat(new Path(dir.toString()), rude)
                .withBucketAssigner(new BasePathBucketAssigner<>()).build())) {
            harness.open();
            harness.processElement("a");
            harness.processElement("b");
            harness.endInput();
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("ab");
        }
    }

    @Test
    void theSinkAndItsConfigurationSurviveJavaSerialization() throws Exception {
        FileSink<String> copy = InstantiationUtil.clone(sink(DefaultRollingPolicy.builder().withMaxPartSize(3).build()), "sink");
        try (var harness = harness(copy)) {
            harness.open();
            harness.processElement("abc");
            harness.processElement("d");
            harness.endInput();
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("abc\n", "d\n");
        }
    }

    @Test
    void policyDefaultsAndValidation() throws IOException {
        DefaultRollingPolicy<String, String> policy = DefaultRollingPolicy.builder().build();
        assertThat(policy.getMaxPartSize()).isEqualTo(128L * 1024 * 1024);
        assertThat(policy.getRolloverInterval()).isEqualTo(60_000);
        assertThat(policy.getInactivityInterval()).isEqualTo(60_000);
        assertThat(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.parse("2kb")).build().getMaxPartSize())
                .isEqualTo(2048);
        assertThatThrownBy(() -> DefaultRollingPolicy.builder().withMaxPartSize(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> DefaultRollingPolicy.builder().withRolloverInterval(Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("rollover");
        assertThatThrownBy(() -> OutputFileConfig.builder().withPartPrefix("a/b").build())
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<>())
                .withBucketCheckInterval(0)).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new DateTimeBucketAssigner<String>("yyyy-MM-dd{{")).isInstanceOf(IllegalArgumentException.class);
        OutputFileConfig config = OutputFileConfig.builder().build();
        assertThat(config.getPartPrefix()).isEqualTo("part");
        assertThat(config.getPartSuffix()).isEmpty();
        assertThat(OnCheckpointRollingPolicy.<String, String>build().shouldRollOnCheckpoint(null)).isTrue();
    }

    @Test
    void simpleStringEncoderWritesToStringAndNewlineInItsCharset() throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        new SimpleStringEncoder<Object>("ISO-8859-1").encode(List.of("é", 1), out);
        assertThat(out.toByteArray()).isEqualTo("[é, 1]\n".getBytes(StandardCharsets.ISO_8859_1));
        ByteArrayOutputStream utf8 = new ByteArrayOutputStream();
        InstantiationUtil.clone(new SimpleStringEncoder<String>(), "encoder").encode("é", utf8);
        assertThat(utf8.toByteArray()).isEqualTo("é\n".getBytes(StandardCharsets.UTF_8));
    }

    // ------------------------------------------------------------------ helpers

    private FileSink<String> sink(RollingPolicy<String, String> policy) {
        return FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>("UTF-8"))
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withRollingPolicy(policy)
                .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
                .build();
    }

    /** Subtask 3 of 4. */
    static OneInputStreamOperatorTestHarness<String, Object> harness(FileSink<String> sink) {
        return new OneInputStreamOperatorTestHarness<>(new SinkWriterOperator<>(sink), 128, 4, 3);
    }

    /** A writer context with a hand-set processing time and no timers. */
    static final class FakeInitContext implements WriterInitContext {
        private final int subtask;
        long now;

        FakeInitContext(int subtask) {
            this.subtask = subtask;
        }

        @Override
        public int getSubtaskId() {
            return subtask;
        }

        @Override
        public int getNumberOfParallelSubtasks() {
            return subtask + 1;
        }

        @Override
        public int getAttemptNumber() {
            return 0;
        }

        @Override
        public MetricGroup metricGroup() {
            return new SimpleMetricGroup("test");
        }

        @Override
        public long currentProcessingTime() {
            return now;
        }
    }
}
