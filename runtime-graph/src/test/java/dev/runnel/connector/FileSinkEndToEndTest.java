package dev.runnel.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.MemorySize;
import dev.runnel.connector.file.sink.FileSink;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.filesystem.OutputFileConfig;
import dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.LongStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file sink on the embedded runtime, without checkpoints: a bounded job's parts are committed at the end
 * of input, and a failed job leaves nothing visible (its parts were never committed).
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileSinkEndToEndTest {

    private static final String UUID = "[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}";

    @TempDir
    java.nio.file.Path dir;

    @Test
    void writesExactlyTheRecordsIntoSeveralRolledParts() throws Exception {
        java.nio.file.Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        // The sequence's splits go first come first served, so one reader may take both; the rebalance gives
        // each of the two sink subtasks records whichever reader read them.
        env.fromSequence(1, 10_000).map(i -> "record-" + i).returns(Types.STRING)
                .rebalance()
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>("UTF-8"))
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofKibiBytes(8)).build())
                        .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
                        .build());
        env.execute("file sink");

        List<java.nio.file.Path> parts = finalFiles(out);
        assertThat(hiddenFiles(out)).as("no in-progress files after success").isEmpty();
        // ~129 KB of output in parts of ~8 KB: well over two parts, from both subtasks.
        assertThat(parts).hasSizeGreaterThan(10);
        // Flink's names: one uuid per bucket of each writer, so two subtasks give two uuids.
        assertThat(parts).extracting(p -> p.getFileName().toString()).allMatch(n -> n.matches("part-" + UUID + "-\\d+\\.txt"));
        assertThat(parts.stream().map(p -> p.getFileName().toString().substring(5, 41)).distinct()).hasSize(2);
        List<String> lines = new ArrayList<>();
        for (java.nio.file.Path part : parts) {
            String content = Files.readString(part);
            assertThat(content).as("%s holds whole records", part).endsWith("\n");
            assertThat(Files.size(part)).as("%s stays near the size", part).isLessThan(8 * 1024 + 64);
            lines.addAll(List.of(content.split("\n")));
        }
        assertThat(lines).containsExactlyInAnyOrderElementsOf(
                LongStream.rangeClosed(1, 10_000).mapToObj(i -> "record-" + i).collect(Collectors.toList()));
    }

    @Test
    void aFailedJobLeavesNothingVisibleAndItsPartsHidden() throws Exception {
        java.nio.file.Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromSequence(1, 1_000)
                .map(i -> {
                    if (i == 500) {
                        throw new IllegalStateException("poison record " + i);
                    }
                    return String.format("%04d", i);
                }).returns(Types.STRING)
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>())
                        .withBucketAssigner(new BasePathBucketAssigner<>())
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(100).build())
                        .build());
        assertThatThrownBy(() -> env.execute("failing")).hasMessageContaining("poison record 500");

        // Without a completed checkpoint nothing was committed: rolled parts are pending, the last in progress,
        // and all of them keep their hidden names. Together they hold whole records from the start, in order.
        assertThat(finalFiles(out)).isEmpty();
        List<java.nio.file.Path> hidden = hiddenFiles(out);
        assertThat(hidden).hasSizeGreaterThan(1).allSatisfy(p ->
                assertThat(p.getFileName().toString()).matches("\\.part-" + UUID + "-\\d+\\.inprogress\\." + UUID));
        StringBuilder content = new StringBuilder();
        for (java.nio.file.Path part : hidden) {
            content.append(Files.readString(part));
        }
        String[] lines = content.toString().split("\n");
        assertThat(lines.length).isGreaterThan(0).isLessThan(500);
        for (int i = 0; i < lines.length; i++) {
            assertThat(lines[i]).isEqualTo(String.format("%04d", i + 1));
        }
    }

    @Test
    void aFailedParallelJobCommitsNothing() throws Exception {
        java.nio.file.Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 200_000)
                .map(i -> {
                    if (i == 150_000) {
                        throw new IllegalStateException("poison record " + i);
                    }
                    return "r" + i;
                }).returns(Types.STRING)
                .rebalance()
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>())
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(4096).build())
                        .build());
        assertThatThrownBy(() -> env.execute("failing in parallel")).hasMessageContaining("poison record 150000");

        assertThat(finalFiles(out)).isEmpty();
        assertThat(hiddenFiles(out)).as("parts rolled before the failure, pending").hasSizeGreaterThan(2)
                .allSatisfy(p -> assertThat(p.getFileName().toString()).contains(".inprogress."));
    }

    @Test
    void theDefaultLayoutIsHourlyBucketsOfFlinkNamedParts() throws Exception {
        java.nio.file.Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 100).map(i -> "n" + i).returns(Types.STRING)
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>()).build());
        env.execute("default layout");

        List<java.nio.file.Path> parts = finalFiles(out);
        assertThat(parts).isNotEmpty().allSatisfy(p -> assertThat(out.relativize(p).toString())
                .matches("\\d{4}-\\d{2}-\\d{2}--\\d{2}/part-" + UUID + "-\\d+"));
        List<String> lines = new ArrayList<>();
        for (java.nio.file.Path part : parts) {
            lines.addAll(Files.readAllLines(part));
        }
        assertThat(lines).containsExactlyInAnyOrderElementsOf(LongStream.rangeClosed(1, 100).mapToObj(i -> "n" + i).toList());
        assertThat(hiddenFiles(out)).isEmpty();
    }

    @Test
    void anOutputDirectoryThatCannotBeCreatedFailsTheJobNamingIt() throws Exception {
        java.nio.file.Path blocker = dir.resolve("blocker");
        Files.writeString(blocker, "a file where the sink wants a directory");
        String target = blocker.resolve("out").toString();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromElements("a", "b").sinkTo(FileSink.forRowFormat(new Path(target), new SimpleStringEncoder<String>()).build());
        assertThatThrownBy(env::execute).hasMessageContaining(target);
    }

    @Test
    void filesRoundTripThroughSourceAndSink() throws Exception {
        java.nio.file.Path in = dir.resolve("in");
        Files.createDirectories(in);
        Files.write(in.resolve("1.txt"), "α\nβ\r\nγ".getBytes(StandardCharsets.UTF_8));
        Files.write(in.resolve("2.txt"), "δ\n".getBytes(StandardCharsets.UTF_8));
        java.nio.file.Path out = dir.resolve("out");

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSource(FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(in.toString())).build(),
                        WatermarkStrategy.noWatermarks(), "in")
                .map(String::toUpperCase).returns(Types.STRING)
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>()).build());
        env.execute("copy");

        List<String> lines = new ArrayList<>();
        for (java.nio.file.Path part : finalFiles(out)) {
            lines.addAll(Files.readAllLines(part, StandardCharsets.UTF_8));
        }
        assertThat(lines).containsExactlyInAnyOrder("Α", "Β", "Γ", "Δ");
        assertThat(hiddenFiles(out)).isEmpty();
    }

    private static List<java.nio.file.Path> finalFiles(java.nio.file.Path dir) throws IOException {
        return list(dir).stream().filter(p -> !p.getFileName().toString().startsWith(".")).collect(Collectors.toList());
    }

    private static List<java.nio.file.Path> hiddenFiles(java.nio.file.Path dir) throws IOException {
        return list(dir).stream().filter(p -> p.getFileName().toString().startsWith(".")).collect(Collectors.toList());
    }

    /** Sorted so that part-0-2 comes before part-0-10. */
    private static List<java.nio.file.Path> list(java.nio.file.Path dir) throws IOException {
        try (Stream<java.nio.file.Path> files = Files.walk(dir)) {
            return files.filter(Files::isRegularFile).sorted(Comparator.comparing((java.nio.file.Path p) -> p.getFileName().toString().length())
                    .thenComparing(p -> p.getFileName().toString())).collect(Collectors.toList());
        }
    }
}
