package dev.runnel.examples.port;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The porting command on a small Flink project (test resources port/flink-job) that uses supported and missing APIs. */
class PortToolTest {

    private static ClassIndex index;
    private static Path sample;

    @BeforeAll
    static void indexRunnel() throws Exception {
        index = ClassIndex.of(System.getProperty("java.class.path"));
        sample = Path.of(PortToolTest.class.getResource("/port/flink-job/pom.xml").toURI()).getParent();
    }

    private record Result(int status, List<String> out, String err) {}

    private static Result port(String... args) throws Exception {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int status = PortTool.run(args, index, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new Result(status, out.toString(StandardCharsets.UTF_8).lines().toList(), err.toString(StandardCharsets.UTF_8));
    }

    @Test
    void reportsEveryNameRunnelLacksWithFileAndLine(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("runnel-job");
        Result result = port(sample.toString(), "--to", copy.toString());

        assertThat(result.out()).containsExactly(
                "rewrote org.apache.flink. to dev.runnel. in 3 of 3 Java files in " + copy,
                "pom.xml:7: org.apache.flink:flink-streaming-java -> dev.runnel:runtime-graph",
                "pom.xml:12: org.apache.flink:flink-connector-kafka -> no Runnel module provides it",
                "pom.xml:17: org.apache.flink:flink-test-utils -> dev.runnel:runtime-graph",
                "src/main/java/com/example/KafkaJob.java:4: dev.runnel.connector.kafka.source.KafkaSource is not in Runnel",
                "src/main/java/com/example/KafkaJob.java:6: dev.runnel.streaming.api.functions.source.InputFormatSourceFunction is not in Runnel",
                "src/main/java/com/example/KafkaJob.java:7: dev.runnel.table.api is not in Runnel",
                "src/main/java/com/example/KafkaJob.java:9: dev.runnel.configuration.CoreOptions.NO_SUCH_OPTION is not in Runnel",
                "src/test/java/com/example/WordCountJobTest.java:10: dev.runnel.test.util.AbstractTestBase is not in Runnel",
                "5 names are not in Runnel");
        assertThat(result.status()).isEqualTo(1);
        assertThat(result.err()).isEmpty();
    }

    /**
     * Flink's own examples and the Flink training live in org.apache.flink packages, so the rewrite moves
     * their classes to dev.runnel too: those are the project's names, not ones Runnel lacks.
     */
    @Test
    void doesNotReportTheProjectsOwnClassesInRewrittenPackages(@TempDir Path tmp) throws Exception {
        Path project = tmp.resolve("flink-examples");
        Path pkg = Files.createDirectories(project.resolve("org/apache/flink/streaming/examples/wordcount/util"));
        Files.writeString(pkg.resolve("WordCountData.java"), String.join("\n",
                "package org.apache.flink.streaming.examples.wordcount.util;",
                "public class WordCountData { public static class Nested {} }"));
        Files.writeString(pkg.getParent().resolve("WordCount.java"), String.join("\n",
                "package org.apache.flink.streaming.examples.wordcount;",
                "import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;",
                "import org.apache.flink.streaming.examples.wordcount.util.WordCountData;",
                "import org.apache.flink.streaming.examples.wordcount.util.WordCountData.Nested;",
                "import org.apache.flink.streaming.examples.wordcount.util.*;",
                "import org.apache.flink.streaming.api.functions.NoSuchFunction;",
                "public class WordCount {",
                "    Object data = org.apache.flink.streaming.examples.wordcount.util.WordCountData.class;",
                "}"));

        Result result = port(project.toString());

        assertThat(result.out()).containsExactly(
                "rewrote org.apache.flink. to dev.runnel. in 2 of 2 Java files in " + project,
                "org/apache/flink/streaming/examples/wordcount/WordCount.java:6: "
                        + "dev.runnel.streaming.api.functions.NoSuchFunction is not in Runnel",
                "1 names are not in Runnel");
        assertThat(result.status()).isEqualTo(1);
    }

    @Test
    void rewritesTheCopyAndLeavesTheSourceAndThePomsAlone(@TempDir Path tmp) throws Exception {
        Path copy = tmp.resolve("runnel-job");
        port(sample.toString(), "--to", copy.toString());

        String job = Files.readString(copy.resolve("src/main/java/com/example/WordCountJob.java"));
        assertThat(job).contains("import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;")
                .doesNotContain("org.apache.flink.");
        assertThat(Files.readString(sample.resolve("src/main/java/com/example/WordCountJob.java")))
                .contains("import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;");
        assertThat(copy.resolve("pom.xml")).hasSameTextualContentAs(sample.resolve("pom.xml"));
        assertThat(copy.resolve("README.md")).hasSameTextualContentAs(sample.resolve("README.md"));
    }

    @Test
    void exitsZeroInPlaceWhenEverythingResolves(@TempDir Path tmp) throws Exception {
        Path job = tmp.resolve("src/main/java/com/example/WordCountJob.java");
        Files.createDirectories(job.getParent());
        Files.copy(sample.resolve("src/main/java/com/example/WordCountJob.java"), job);

        Result result = port(tmp.toString());

        assertThat(result.out()).containsExactly(
                "rewrote org.apache.flink. to dev.runnel. in 1 of 1 Java files in " + tmp,
                "every dev.runnel name resolves");
        assertThat(result.status()).isZero();
        assertThat(Files.readString(job)).doesNotContain("org.apache.flink.");
    }

    @Test
    void refusesBadArguments(@TempDir Path tmp) throws Exception {
        assertThat(port().status()).isEqualTo(2);
        Result notADirectory = port(tmp.resolve("missing").toString());
        assertThat(notADirectory.status()).isEqualTo(2);
        assertThat(notADirectory.err()).isEqualTo("port.sh: " + tmp.resolve("missing") + " is not a directory\n");
        Result existingCopy = port(sample.toString(), "--to", tmp.toString());
        assertThat(existingCopy.status()).isEqualTo(2);
        assertThat(existingCopy.err()).contains("exists already");
    }
}
