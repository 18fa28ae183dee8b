package dev.runnel.runtime.minicluster;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Two JVMs, each a TaskManager with a network shuffle, run one job whose subtasks are split between them:
 * the records of every partitioner arrive exactly once, at the consumer the partitioner chose, in order per
 * channel, and never behind a watermark (events keep their order with the records).
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class TwoProcessShuffleTest {

    private static final long RECORDS = 100_000;

    /** One child JVM and the lines it prints. */
    private record Child(Process process, PrintWriter stdin, BlockingQueue<String> lines) {

        String expect(String prefix) throws InterruptedException {
            while (true) {
                String line = lines.poll(60, TimeUnit.SECONDS);
                assertThat(line).as("a line starting with " + prefix + " from pid " + process.pid()).isNotNull();
                assertThat(line).as("child pid " + process.pid()).doesNotStartWith("FAILED");
                if (line.startsWith(prefix)) {
                    return line;
                }
            }
        }

        void say(String line) {
            stdin.println(line);
            stdin.flush();
        }
    }

    private static Child start(int index, Path output) throws Exception {
        ProcessBuilder builder = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx256m", "-cp", System.getProperty("java.class.path"), TaskManagerProcess.class.getName(),
                Integer.toString(index), output.toString(), Long.toString(RECORDS));
        builder.environment().put("RUNNEL_TEST_SECRET", "two-process-secret-" + ProcessHandle.current().pid());
        builder.redirectErrorStream(true);
        Process process = builder.start();
        BlockingQueue<String> lines = new LinkedBlockingQueue<>();
        Thread pump = new Thread(() -> {
            try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(), StandardCharsets.UTF_8))) {
                for (String line; (line = out.readLine()) != null; ) {
                    lines.add(line);
                }
            } catch (java.io.IOException e) {
                lines.add("FAILED reading the child's output: " + e);
            }
        }, "child-" + index + "-output");
        pump.setDaemon(true);
        pump.start();
        return new Child(process, new PrintWriter(new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8)), lines);
    }

    @Test
    void everyPartitionerDeliversExactlyOnceAndInOrderAcrossProcesses(@TempDir Path output) throws Exception {
        List<Child> children = new ArrayList<>();
        try {
            children.add(start(0, output));
            children.add(start(1, output));
            int port0 = Integer.parseInt(children.get(0).expect("READY").split(" ")[1]);
            int port1 = Integer.parseInt(children.get(1).expect("READY").split(" ")[1]);
            children.get(0).say("PEER " + port1);
            children.get(1).say("PEER " + port0);
            children.get(0).expect("DONE");
            children.get(1).expect("DONE");
            for (Child child : children) {
                child.say("EXIT");
                assertThat(child.process().waitFor(30, TimeUnit.SECONDS)).isTrue();
                assertThat(child.process().exitValue()).isZero();
            }
        } finally {
            for (Child child : children) {
                child.process().destroyForcibly(); // by its handle (its PID), never by name
                child.process().waitFor(10, TimeUnit.SECONDS);
            }
        }
        for (String partitioner : EveryPartitionerJob.PARTITIONERS) {
            check(partitioner, output);
        }
    }

    private static void check(String partitioner, Path output) throws Exception {
        Map<Long, Integer> seen = new HashMap<>();
        long watermarksSeen = 0;
        for (int consumer = 0; consumer < 2; consumer++) {
            long[] lastSeq = {-1, -1};
            for (String line : Files.readAllLines(output.resolve(partitioner + "-" + consumer + ".txt"))) {
                String[] parts = line.split(" ");
                long value = Long.parseLong(parts[0]);
                long timestamp = Long.parseLong(parts[1]);
                long watermark = Long.parseLong(parts[2]);
                int producer = (int) (value / PerSubtaskSequenceSource.PRODUCER_STRIDE);
                long seq = value % PerSubtaskSequenceSource.PRODUCER_STRIDE;
                String where = partitioner + ": value " + value + " at consumer " + consumer;
                assertThat(timestamp).as(where).isEqualTo(seq);
                assertThat(watermark).as(where + " arrived behind watermark " + watermark).isLessThan(timestamp);
                assertThat(seq).as(where + " in order on its channel").isGreaterThan(lastSeq[producer]);
                lastSeq[producer] = seq;
                watermarksSeen += watermark > Long.MIN_VALUE ? 1 : 0;
                assertThat(consumer).as(where).isEqualTo(expectedConsumer(partitioner, producer, value, consumer));
                seen.merge(value, 1, Integer::sum);
            }
        }
        assertThat(watermarksSeen).as(partitioner + ": records that arrived after some watermark").isPositive();
        int copies = partitioner.equals("broadcast") ? 2 : 1;
        assertThat(seen).as(partitioner + ": every record of both producers").hasSize((int) (2 * RECORDS));
        assertThat(seen.values()).as(partitioner + ": exactly " + copies + " cop(ies) of each").containsOnly(copies);
    }

    /** Where the partitioner must send {@code value}; -1 for the broadcast, which sends it everywhere. */
    private static int expectedConsumer(String partitioner, int producer, long value, int actual) {
        return switch (partitioner) {
            case "rebalance", "shuffle", "broadcast" -> actual;
            case "keyBy" -> KeyGroupRangeAssignment.assignKeyToParallelOperator(value % 10, 128, 2);
            case "rescale", "forward" -> producer;
            case "global" -> 0;
            case "custom" -> (int) ((value % 7) % 2);
            default -> throw new IllegalArgumentException(partitioner);
        };
    }
}
