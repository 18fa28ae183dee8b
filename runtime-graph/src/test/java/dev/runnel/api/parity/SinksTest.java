package dev.runnel.api.parity;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.PrintSink;
import dev.runnel.streaming.api.functions.sink.v2.DiscardingSink;
import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The Sink V2 print and discarding sinks, used through sinkTo as in Flink 1.20. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class SinksTest {

    /** Runs {@code job} with standard out and err captured; returns {out, err}. */
    private static String[] captured(ThrowingRunnable job) throws Exception {
        PrintStream out = System.out;
        PrintStream err = System.err;
        ByteArrayOutputStream outBytes = new ByteArrayOutputStream();
        ByteArrayOutputStream errBytes = new ByteArrayOutputStream();
        System.setOut(new PrintStream(outBytes, true, StandardCharsets.UTF_8));
        System.setErr(new PrintStream(errBytes, true, StandardCharsets.UTF_8));
        try {
            job.run();
        } finally {
            System.setOut(out);
            System.setErr(err);
        }
        return new String[] {outBytes.toString(StandardCharsets.UTF_8), errBytes.toString(StandardCharsets.UTF_8)};
    }

    private interface ThrowingRunnable {
        void run() throws Exception;
    }

    /** The printed lines, without the log lines the test logger writes to standard out too. */
    private static List<String> printed(String text) {
        return Arrays.stream(text.split("\n")).filter(l -> !l.isEmpty())
                .filter(l -> !l.matches("^\\d{2}:\\d{2}:\\d{2}\\.\\d{3} \\[.*")).collect(Collectors.toList());
    }

    private static List<String> sortedLines(String text) {
        return printed(text).stream().sorted().collect(Collectors.toList());
    }

    @Test
    void printSinkAtParallelismOnePrintsBareLinesInOrder() throws Exception {
        String[] output = captured(() -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            env.fromData("a", "b", "c").sinkTo(new PrintSink<>());
            env.execute("print");
        });
        assertThat(printed(output[0])).containsExactly("a", "b", "c");
        assertThat(printed(output[1])).isEmpty();
    }

    @Test
    void printSinkWithIdentifierToStandardError() throws Exception {
        String[] output = captured(() -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
            env.fromData(1, 2).sinkTo(new PrintSink<>("ids", true));
            env.execute("print to err");
        });
        assertThat(printed(output[1])).containsExactly("ids> 1", "ids> 2");
        assertThat(printed(output[0])).isEmpty();
    }

    @Test
    void parallelPrintSinkPrefixesTheSubtask() throws Exception {
        String[] output = captured(() -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            env.fromData("x", "y", "z", "w").rebalance().sinkTo(new PrintSink<>("out")).setParallelism(2);
            env.fromData("p", "q").rebalance().sinkTo(new PrintSink<>()).setParallelism(2);
            env.execute("parallel print");
        });
        List<String> lines = sortedLines(output[0]);
        assertThat(lines).hasSize(6);
        assertThat(lines.stream().map(l -> l.replaceAll("^(out:)?[12]> ", "")).sorted())
                .containsExactly("p", "q", "w", "x", "y", "z");
        assertThat(lines).allMatch(l -> l.matches("out:[12]> [wxyz]|[12]> [pq]"));
        assertThat(lines.stream().filter(l -> l.startsWith("out:")).map(l -> l.substring(0, 5)).distinct())
                .containsExactlyInAnyOrder("out:1", "out:2");
    }

    /** Counts the records that pass, so the test can see they reached the discarding sink. */
    static final class Count extends RichMapFunction<Long, Long> {
        @Override
        public Long map(Long value) {
            getRuntimeContext().getLongCounter("passed").add(1);
            return value;
        }
    }

    @Test
    void discardingSinkEndsAPipelineAndDropsEverything() throws Exception {
        String[] output = captured(() -> {
            StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
            env.fromSequence(1, 1000).map(new Count()).sinkTo(new DiscardingSink<>());
            JobExecutionResult result = env.execute("discard");
            assertThat(result.<Long>getAccumulatorResult("passed")).isEqualTo(1000L);
        });
        assertThat(printed(output[0])).isEmpty();
    }
}
