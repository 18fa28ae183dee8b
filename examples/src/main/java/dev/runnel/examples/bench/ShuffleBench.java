package dev.runnel.examples.bench;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.accumulators.LongCounter;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.Locale;

/**
 * The network shuffle's throughput: records of a fixed size from two producer subtasks to two consumer
 * subtasks (rebalance), each side in its own slot sharing group on TaskManagers of its own, so every record
 * crosses the Netty data plane on loopback. {@code loopback} measures what the machine allows: one plain socket
 * copying 64 KiB buffers between two threads, no framework. Both print a {@code RESULT} line.
 *
 * <p>The shuffle first runs an unmeasured job of {@code W} records in the same JVM: a run of a few seconds spends a
 * third of its CPU in the JIT compilers (perf, 2 cores), which the loopback copy, one short loop, does not; the
 * comparison is of the two in steady state. {@code --warmup 0} measures a cold start.
 *
 * <pre>
 *   examples/bench.sh shuffle [N] [--record-bytes B] [--warmup W] [--conf key=value]...
 *                                  (default N 10 000 000, B 1024, W 5 000 000 records)
 *   examples/bench.sh loopback [MIB]                      (default 4096 MiB)
 * </pre>
 */
public final class ShuffleBench {

    @SuppressWarnings("unchecked")
    private static final TypeInformation<byte[]> BYTES = (TypeInformation<byte[]>) Types.PRIMITIVE_ARRAY(Types.BYTE);

    private ShuffleBench() {}

    public static void main(String[] args) throws Exception {
        long n = 10_000_000;
        long warmup = 5_000_000;
        int recordBytes = 1024;
        Configuration conf = new Configuration().setString("taskmanager.count", "4");
        for (int i = 0; i < args.length; i++) {
            if (args[i].equals("--conf") && i + 1 < args.length) {
                String[] kv = args[++i].split("=", 2);
                conf.setString(kv[0], kv.length > 1 ? kv[1] : "");
            } else if (args[i].equals("--warmup")) {
                warmup = Bench.number(i + 1 < args.length ? args[++i] : "", "--warmup", 0);
            } else if (args[i].equals("--record-bytes")) {
                recordBytes = (int) Bench.number(i + 1 < args.length ? args[++i] : "", "--record-bytes", 16);
            } else {
                n = Bench.number(args[i], "N (the record count)", 1);
            }
        }
        if (warmup > 0 && runShuffle(warmup, recordBytes, conf, false) != 0) {
            System.exit(1);
        }
        System.exit(runShuffle(n, recordBytes, conf, true));
    }

    /** Runs the shuffle of {@code n} records; prints its CHECK line, and its RESULT line when {@code measured}. */
    static int runShuffle(long n, int recordBytes, Configuration conf, boolean measured) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(Bench.PARALLELISM);
        int size = recordBytes;
        env.fromSource(new XorShiftSource<byte[]>(n, (i, x) -> record(size, x), BYTES, false),
                        WatermarkStrategy.noWatermarks(), "records")
                .slotSharingGroup("producers")
                .rebalance()
                .addSink(new ChecksumSink()).name("checksum").slotSharingGroup("consumers");
        System.out.printf("INFO runtime=runnel workload=shuffle N=%d record_bytes=%d parallelism=%d taskmanagers=4"
                + " java=%s%n", n, recordBytes, Bench.PARALLELISM, System.getProperty("java.version"));
        XorShiftSource.EMITTED.set(0);
        long t0 = System.nanoTime();
        JobExecutionResult result = env.execute("bench-shuffle");
        double seconds = (System.nanoTime() - t0) / 1e9;
        long received = (Long) result.getAllAccumulatorResults().get("records");
        long sum = (Long) result.getAllAccumulatorResults().get("sum");
        long expected = 0;
        long x = XorShiftSource.SEED;
        for (long i = 0; i < n; i++) {
            x = XorShiftSource.step(x);
            expected += x;
        }
        boolean ok = received == n && sum == expected;
        System.out.printf("CHECK workload=shuffle records=%d sum=%s expected_sum=%s ok=%s%n", received,
                Checksums.hex(sum), Checksums.hex(expected), ok);
        if (measured) {
            System.out.printf(Locale.ROOT, "RESULT workload=shuffle record_bytes=%d records=%d seconds=%.3f"
                    + " records_per_s=%.0f mb_per_s=%.1f%n", recordBytes, received, seconds, received / seconds,
                    received * (double) recordBytes / seconds / (1 << 20));
        }
        return ok ? 0 : 1;
    }

    /** A record of {@code size} bytes that carries the generator value in its first eight. */
    static byte[] record(int size, long x) {
        byte[] bytes = new byte[size];
        for (int b = 0; b < 8; b++) {
            bytes[b] = (byte) (x >>> (56 - 8 * b));
        }
        return bytes;
    }

    /** Counts the records and sums the values they carry. */
    static final class ChecksumSink extends RichSinkFunction<byte[]> {
        private long records;
        private long sum;

        @Override
        public void invoke(byte[] value, Context context) {
            long x = 0;
            for (int b = 0; b < 8; b++) {
                x = (x << 8) | (value[b] & 0xFF);
            }
            sum += x;
            records++;
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("records", new LongCounter(records));
            getRuntimeContext().addAccumulator("sum", new LongCounter(sum));
        }
    }

    /** The loopback limit: one TCP connection, 64 KiB writes, a reader thread that discards. */
    static int runLoopback(long mib) throws Exception {
        long total = mib << 20;
        byte[] chunk = new byte[64 * 1024];
        try (ServerSocket server = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            Thread reader = new Thread(() -> {
                try (Socket s = server.accept(); InputStream in = s.getInputStream()) {
                    byte[] buffer = new byte[64 * 1024];
                    while (in.read(buffer) >= 0) {
                        // discard
                    }
                } catch (IOException e) {
                    throw new IllegalStateException(e);
                }
            }, "loopback-reader");
            reader.start();
            long t0;
            try (Socket s = new Socket(InetAddress.getLoopbackAddress(), server.getLocalPort());
                    OutputStream out = s.getOutputStream()) {
                t0 = System.nanoTime();
                for (long sent = 0; sent < total; sent += chunk.length) {
                    out.write(chunk);
                }
            }
            reader.join();
            double seconds = (System.nanoTime() - t0) / 1e9;
            System.out.printf(Locale.ROOT, "RESULT workload=loopback bytes=%d seconds=%.3f mb_per_s=%.1f%n", total,
                    seconds, total / seconds / (1 << 20));
        }
        return 0;
    }
}
