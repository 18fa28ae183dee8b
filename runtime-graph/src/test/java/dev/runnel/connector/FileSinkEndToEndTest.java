package dev.runnel.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.MemorySize;
import dev.runnel.connector.file.sink.FileSink;
import dev.runnel.connector.file.sink.OutputFileConfig;
import dev.runnel.connector.file.sink.rollingpolicies.DefaultRollingPolicy;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
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

/** The file sink on the embedded runtime: exact output, rolling, and what a failed job leaves. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileSinkEndToEndTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void writesExactlyTheRecordsIntoSeveralRolledParts() throws Exception {
        java.nio.file.Path out = dir.resolve("out");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 10_000).map(i -> "record-" + i).returns(Types.STRING)
                .sinkTo(FileSink.forRowFormat(new Path(out.toString()), new SimpleStringEncoder<String>("UTF-8"))
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofKibiBytes(8)).build())
                        .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
                        .build());
        env.execute("file sink");

        List<java.nio.file.Path> parts = finalFiles(out);
        assertThat(hiddenFiles(out)).as("no in-progress files after success").isEmpty();
        // ~129 KB of output in parts of ~8 KB: well over two parts, from both subtasks.
        assertThat(parts).hasSizeGreaterThan(10);
        assertThat(parts).extracting(p -> p.getFileName().toString()).allMatch(n -> n.matches("part-[01]-\\d+\\.txt"))
                .anyMatch(n -> n.startsWith("part-0-")).anyMatch(n -> n.startsWith("part-1-"));
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
    void aFailedJobLeavesOnlyRolledPartsFinalAndItsInProgressPartHidden() throws Exception {
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
                        .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(100).build())
                        .build());
        assertThatThrownBy(() -> env.execute("failing")).hasMessageContaining("poison record 500");

        // Rolled parts hold whole records, in order, from the start, and nothing at or after the poison.
        StringBuilder finalContent = new StringBuilder();
        for (java.nio.file.Path part : finalFiles(out)) {
            assertThat(part.getFileName().toString()).matches("part-0-\\d+");
            String content = Files.readString(part);
            assertThat(content).endsWith("\n");
            finalContent.append(content);
        }
        String[] finalLines = finalContent.toString().split("\n");
        assertThat(finalLines.length).isGreaterThan(0).isLessThan(499);
        for (int i = 0; i < finalLines.length; i++) {
            assertThat(finalLines[i]).isEqualTo(String.format("%04d", i + 1));
        }
        // The part that was open when the job failed stays hidden and in progress, never renamed.
        assertThat(hiddenFiles(out)).singleElement().satisfies(p ->
                assertThat(p.getFileName().toString()).startsWith(".part-0-").contains(".inprogress."));
    }

    @Test
    void aFailedParallelJobLeavesOnlyWholeRecordsInFinalParts() throws Exception {
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

        assertThat(finalFiles(out)).as("parts rolled before the failure").hasSizeGreaterThan(2);
        List<String> lines = new ArrayList<>();
        for (java.nio.file.Path part : finalFiles(out)) {
            String content = Files.readString(part);
            assertThat(content).as("%s holds whole records", part).endsWith("\n");
            lines.addAll(List.of(content.split("\n")));
        }
        assertThat(lines).doesNotHaveDuplicates().allSatisfy(line -> {
            assertThat(line).matches("r\\d+");
            assertThat(Long.parseLong(line.substring(1))).isBetween(1L, 200_000L).isNotEqualTo(150_000L);
        });
        assertThat(hiddenFiles(out)).allSatisfy(p -> assertThat(p.getFileName().toString()).contains(".inprogress."));
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
        try (Stream<java.nio.file.Path> files = Files.list(dir)) {
            return files.sorted(Comparator.comparing((java.nio.file.Path p) -> p.getFileName().toString().length())
                    .thenComparing(p -> p.getFileName().toString())).collect(Collectors.toList());
        }
    }
}
