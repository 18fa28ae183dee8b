package dev.runnel.connector.file.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.configuration.MemorySize;
import dev.runnel.connector.file.sink.rollingpolicies.DefaultRollingPolicy;
import dev.runnel.core.fs.Path;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.util.InstantiationUtil;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSinkTest {

    @TempDir
    java.nio.file.Path dir;

    private final FakeInitContext context = new FakeInitContext(3);

    @Test
    void writesInProgressThenRenamesAtTheEndOfInput() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().build()).createWriter(context);
        writer.write("a", null);
        writer.write("ü", null);

        assertThat(finalFiles()).isEmpty();
        assertThat(inProgressFiles()).singleElement().satisfies(f ->
                assertThat(f.getFileName().toString()).matches("\\.part-3-0\\.txt\\.inprogress\\.[0-9a-f-]{36}"));

        writer.flush(true);
        writer.close();
        assertThat(inProgressFiles()).isEmpty();
        assertThat(finalFiles()).extracting(this::name).containsExactly("part-3-0.txt");
        assertThat(read("part-3-0.txt")).isEqualTo("a\nü\n");
    }

    @Test
    void rollsBySizeIntoSeveralCompleteParts() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().withMaxPartSize(10).build()).createWriter(context);
        for (int i = 0; i < 10; i++) {
            writer.write("rec" + i, null); // 5 bytes each: two per part
        }
        assertThat(finalFiles()).extracting(this::name).containsExactly("part-3-0.txt", "part-3-1.txt", "part-3-2.txt",
                "part-3-3.txt");
        writer.flush(true);
        writer.close();
        List<String> names = finalFiles().stream().map(this::name).collect(Collectors.toList());
        assertThat(names).hasSize(5);
        StringBuilder all = new StringBuilder();
        for (String name : names) {
            String content = read(name);
            assertThat(content).as(name).hasSize(10).endsWith("\n");
            all.append(content);
        }
        assertThat(all.toString()).isEqualTo(IntStream.range(0, 10).mapToObj(i -> "rec" + i + "\n").collect(Collectors.joining()));
    }

    @Test
    void theRecordThatCrossesTheSizeStaysInItsPart() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofBytes(4)).build())
                .createWriter(context);
        writer.write("0123456789", null);
        writer.write("x", null);
        writer.flush(true);
        assertThat(read("part-3-0.txt")).isEqualTo("0123456789\n");
        assertThat(read("part-3-1.txt")).isEqualTo("x\n");
    }

    @Test
    void rollsByRolloverIntervalAndByInactivity() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder()
                .withRolloverInterval(Duration.ofSeconds(10))
                .withInactivityInterval(Duration.ofSeconds(3))
                .build()).createWriter(context);
        context.now = 1_000;
        writer.write("a", null);
        context.now = 3_000;
        writer.write("b", null);
        context.now = 5_000;
        writer.write("c", null);
        context.now = 7_000;
        writer.write("d", null);
        context.now = 9_000;
        writer.write("e", null);
        assertThat(finalFiles()).isEmpty();
        context.now = 11_000; // 10 s since the part opened: roll before writing f
        writer.write("f", null);
        assertThat(finalFiles()).extracting(this::name).containsExactly("part-3-0.txt");
        assertThat(read("part-3-0.txt")).isEqualTo("a\nb\nc\nd\ne\n");

        context.now = 14_000; // 3 s without records: inactivity roll before g
        writer.write("g", null);
        assertThat(read("part-3-1.txt")).isEqualTo("f\n");

        context.now = 17_500; // a non-final flush rolls an inactive part too
        writer.flush(false);
        assertThat(read("part-3-2.txt")).isEqualTo("g\n");
        assertThat(inProgressFiles()).isEmpty();
        writer.close();
    }

    @Test
    void aNonFinalFlushPushesBytesButKeepsThePartInProgress() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().build()).createWriter(context);
        writer.write("buffered", null);
        writer.flush(false);
        assertThat(finalFiles()).isEmpty();
        assertThat(inProgressFiles()).singleElement().satisfies(f ->
                assertThat(Files.readString(f)).isEqualTo("buffered\n"));
        writer.close();
    }

    @Test
    void closeWithoutEndOfInputLeavesTheInProgressFileAndRenamesNothing() throws Exception {
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().withMaxPartSize(6).build()).createWriter(context);
        writer.write("one", null);
        writer.write("two", null);
        writer.write("three", null); // rolls one+two (8 bytes >= 6), three is in progress
        writer.close();
        assertThat(finalFiles()).extracting(this::name).containsExactly("part-3-0.txt");
        assertThat(read("part-3-0.txt")).isEqualTo("one\ntwo\n");
        assertThat(inProgressFiles()).singleElement().satisfies(f -> {
            assertThat(f.getFileName().toString()).startsWith(".part-3-1.txt.inprogress.");
            assertThat(Files.readString(f)).isEqualTo("three\n");
        });
    }

    @Test
    void neverOverwritesPartsOfAnEarlierRun() throws Exception {
        Files.writeString(dir.resolve("part-3-0.txt"), "earlier run\n");
        Files.writeString(dir.resolve("part-3-1.txt"), "earlier run too\n");
        SinkWriter<String> writer = sink(DefaultRollingPolicy.builder().build()).createWriter(context);
        writer.write("new", null);
        writer.flush(true);
        assertThat(read("part-3-0.txt")).isEqualTo("earlier run\n");
        assertThat(read("part-3-1.txt")).isEqualTo("earlier run too\n");
        assertThat(read("part-3-2.txt")).isEqualTo("new\n");
    }

    @Test
    void createsAMissingOutputDirectory() throws Exception {
        java.nio.file.Path nested = dir.resolve("a/b/c");
        SinkWriter<String> writer = FileSink.forRowFormat(new Path(nested.toString()), new SimpleStringEncoder<String>())
                .build().createWriter(context);
        writer.write("x", null);
        writer.flush(true);
        assertThat(Files.readString(nested.resolve("part-3-0"))).isEqualTo("x\n");
    }

    @Test
    void anOutputDirectoryThatCannotBeCreatedFailsNamingIt() throws IOException {
        java.nio.file.Path file = dir.resolve("occupied");
        Files.writeString(file, "a file, not a directory");
        FileSink<String> onFile = FileSink.forRowFormat(new Path(file.toString()), new SimpleStringEncoder<String>()).build();
        assertThatThrownBy(() -> onFile.createWriter(context)).isInstanceOf(IOException.class)
                .hasMessageContaining(file.toString()).hasMessageContaining("not a directory");
        FileSink<String> under = FileSink.forRowFormat(new Path(file + "/sub"), new SimpleStringEncoder<String>()).build();
        assertThatThrownBy(() -> under.createWriter(context)).isInstanceOf(IOException.class)
                .hasMessageContaining(file + "/sub");
    }

    @Test
    void anEncoderThatClosesTheStreamDoesNotCloseThePart() throws Exception {
        Encoder<String> rude = (element, stream) -> {
            stream.write(element.getBytes(StandardCharsets.UTF_8));
            stream.close();
        };
        SinkWriter<String> writer = FileSink.forRowFormat(new Path(dir.toString()), rude).build().createWriter(context);
        writer.write("a", null);
        writer.write("b", null);
        writer.flush(true);
        assertThat(read("part-3-0")).isEqualTo("ab");
    }

    @Test
    void theSinkAndItsConfigurationSurviveJavaSerialization() throws Exception {
        FileSink<String> copy = InstantiationUtil.clone(sink(DefaultRollingPolicy.builder().withMaxPartSize(3).build()), "sink");
        SinkWriter<String> writer = copy.createWriter(context);
        writer.write("abc", null);
        writer.write("d", null);
        writer.flush(true);
        assertThat(finalFiles()).extracting(this::name).containsExactly("part-3-0.txt", "part-3-1.txt");
    }

    @Test
    void defaultRollingPolicyDefaultsAndValidation() {
        DefaultRollingPolicy<String> policy = DefaultRollingPolicy.builder().build();
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
        OutputFileConfig config = OutputFileConfig.builder().build();
        assertThat(config.getPartPrefix()).isEqualTo("part");
        assertThat(config.getPartSuffix()).isEmpty();
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

    private FileSink<String> sink(RollingPolicy<String> policy) {
        return FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>("UTF-8"))
                .withRollingPolicy(policy)
                .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
                .build();
    }

    private List<java.nio.file.Path> finalFiles() throws IOException {
        return list().stream().filter(p -> !name(p).startsWith(".")).collect(Collectors.toList());
    }

    private List<java.nio.file.Path> inProgressFiles() throws IOException {
        return list().stream().filter(p -> name(p).startsWith(".")).collect(Collectors.toList());
    }

    private List<java.nio.file.Path> list() throws IOException {
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            return files.sorted((a, b) -> {
                // part-3-10 after part-3-9
                String x = name(a);
                String y = name(b);
                return x.length() != y.length() ? Integer.compare(x.length(), y.length()) : x.compareTo(y);
            }).collect(Collectors.toCollection(ArrayList::new));
        }
    }

    private String name(java.nio.file.Path p) {
        return p.getFileName().toString();
    }

    private String read(String name) throws IOException {
        return Files.readString(dir.resolve(name));
    }

    /** A writer context with a hand-set processing time. */
    private static final class FakeInitContext implements WriterInitContext {
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
