package dev.runnel.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.configuration.Configuration;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Timeout;

/**
 * The benchmark programs at small N: each run verifies its result against a sequential computation
 * of the same generator and returns non-zero on any mismatch, so a benchmark can never report a
 * rate for a wrong answer.
 */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BenchTest {

    @ParameterizedTest
    @CsvSource({"wordcount-heap, 200000", "wordcount-rocksdb, 100000", "window, 200000"})
    void peerWorkloadsProduceTheReferenceChecksums(String workload, long n) throws Exception {
        assertThat(Bench.run(workload, n, true, true, new Configuration())).isZero();
    }

    /** The W3 hand loop computes the same checksum as the reference (and so as the job and the peer). */
    @org.junit.jupiter.api.Test
    void theW3HandLoopHasTheWindowChecksum() {
        assertThat(W3Limit.run(123_457)).isEqualTo(Bench.expectedWindow(123_457)[2]);
    }

    /** The W1 partitioned hand loop has W1's checksum whatever the number of threads it splits the words over. */
    @ParameterizedTest
    @CsvSource({"1", "2", "3"})
    void theW1PartitionedHandLoopHasTheWordCountChecksum(int threads) throws Exception {
        assertThat(W1PartitionedLimit.run(123_457, threads)).isEqualTo(Bench.expectedWordCount(123_457)[2]);
    }

    /** The W1 exchange hand loop has W1's checksum in both schedules and every counting, whatever the parallelism. */
    @ParameterizedTest
    @CsvSource({"1, false, bare", "2, false, bare", "3, false, bare", "1, true, bare", "2, true, bare", "3, true, bare",
            "2, false, boxed", "3, true, boxed", "2, false, longmap", "3, true, longmap"})
    void theW1ExchangeHandLoopHasTheWordCountChecksum(int parallelism, boolean coop, String counting) throws Exception {
        assertThat(W1ExchangeLimit.run(123_457, parallelism, coop, counting))
                .isEqualTo(Bench.expectedWordCount(123_457)[2]);
    }

    @ParameterizedTest
    @CsvSource({"heap, -1", "heap, 5000", "rocksdb, -1", "rocksdb, 5000"})
    void everyTimerFiresOnceAndInOrder(String backend, long delay) throws Exception {
        assertThat(TimerBench.run(backend, 100_000, 20_000, delay, 2, new Configuration())).isZero();
    }

    @ParameterizedTest
    @CsvSource({"true, false", "false, false", "true, true"})
    void pojoAndTupleRecordsGiveW1sChecksum(boolean pojo, boolean objectReuse) throws Exception {
        assertThat(PojoBench.run(pojo, 200_000, objectReuse)).isZero();
    }

    /**
     * {@code --trace} in a JVM of its own (the trace is fixed when its class loads): a TRACE line of samples in
     * time order whose counts never fall and never pass the records sent, and the result checked as without it.
     */
    @Test
    void theRateTraceSamplesTheRecordsSeenAndLeavesTheResultAlone(@TempDir Path dir) throws Exception {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Path output = dir.resolve("bench.out");
        Process process = new ProcessBuilder(java.toString(), "-Xmx512m", "-cp", System.getProperty("java.class.path"),
                Bench.class.getName(), "wordcount-heap", "600000", "--object-reuse", "--trace")
                .redirectErrorStream(true).redirectOutput(output.toFile()).start();
        try {
            assertThat(process.waitFor(90, TimeUnit.SECONDS)).isTrue();
        } finally {
            process.destroyForcibly();
        }
        List<String> lines = Files.readAllLines(output, StandardCharsets.UTF_8);
        assertThat(process.exitValue()).as(String.join("\n", lines)).isZero();
        assertThat(lines).anyMatch(l -> l.startsWith("CHECK ") && l.contains("ok=true"));
        String trace = lines.stream().filter(l -> l.startsWith("TRACE ")).findFirst().orElseThrow(
                () -> new IOException("no TRACE line in: " + lines));
        long lastMillis = -1;
        double lastCount = -1;
        String[] samples = trace.split(" ");
        assertThat(samples.length).isGreaterThan(3);
        // The JVM's uptime at the clock's start, to place the samples beside -Xlog times; the job starts after main.
        assertThat(samples[1]).startsWith("t0_uptime_ms=");
        assertThat(Long.parseLong(samples[1].substring("t0_uptime_ms=".length()))).isPositive();
        assertThat(samples[2]).isEqualTo("ms:Mrecords_at_sinks");
        for (int i = 3; i < samples.length; i++) {
            String[] sample = samples[i].split(":");
            long millis = Long.parseLong(sample[0]);
            double count = Double.parseDouble(sample[1]);
            assertThat(millis).isGreaterThan(lastMillis);
            assertThat(count).isGreaterThanOrEqualTo(lastCount).isLessThanOrEqualTo(0.6);
            lastMillis = millis;
            lastCount = count;
        }
    }
}
