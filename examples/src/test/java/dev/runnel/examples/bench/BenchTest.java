package dev.runnel.examples.bench;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.configuration.Configuration;
import java.util.concurrent.TimeUnit;
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
}
