package dev.runnel.examples.bench;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.accumulators.LongCounter;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.util.Collector;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Locale;
import java.util.Map;

/**
 * The timer benchmark of the RocksDB issue: every record registers one event-time timer, and every
 * timer fires. With the defaults that is 10 million timers over 1 million keys.
 *
 * <pre>
 *   TimerBench heap|rocksdb [N] [--keys K] [--delay-ms D] [--parallelism P] [--conf key=value]...
 * </pre>
 *
 * <p>Record {@code i} (timestamp {@code i}) has key {@code xorshift_i mod K} and registers a timer at
 * {@code i + D}. With {@code D} absent ("bulk", the default) the source emits no watermarks, so all
 * N timers are pending at once until the end-of-input watermark fires them: the worst case for
 * memory. With {@code D} given, watermarks follow the timestamps and timers fire about D records
 * after they were registered, so about D timers are pending.
 *
 * <p>Checks: every timer fires exactly once (count and an order-independent hash of key and
 * timestamp equal the generator's), and each subtask fires its timers in timestamp order. Prints
 * {@code RESULT} with records/s (each record = one timer registered and fired), the sampled peak
 * of used heap and the process's peak resident memory (which includes RocksDB's native memory).
 */
public final class TimerBench {

    private TimerBench() {}

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !(args[0].equals("heap") || args[0].equals("rocksdb"))) {
            System.err.println("usage: TimerBench heap|rocksdb [N] [--keys K] [--delay-ms D] [--parallelism P] [--conf key=value]...");
            System.exit(2);
        }
        String backend = args[0];
        long n = 10_000_000L;
        int keys = 1_000_000;
        long delay = -1;
        int parallelism = Bench.PARALLELISM;
        Configuration conf = new Configuration();
        for (int i = 1; i < args.length; i++) {
            switch (args[i]) {
                case "--keys" -> keys = (int) Math.min(Integer.MAX_VALUE, Bench.number(value(args, ++i, "--keys"), "--keys", 1));
                case "--delay-ms" -> delay = Bench.number(value(args, ++i, "--delay-ms"), "--delay-ms", 0);
                case "--parallelism" -> parallelism = (int) Math.min(Integer.MAX_VALUE, Bench.number(value(args, ++i, "--parallelism"), "--parallelism", 1));
                case "--conf" -> {
                    String[] kv = value(args, ++i, "--conf").split("=", 2);
                    if (kv.length != 2) {
                        System.err.println("--conf takes key=value, got '" + args[i] + "'");
                        System.exit(2);
                    }
                    conf.setString(kv[0], kv[1]);
                }
                default -> n = Bench.number(args[i], "N (the number of timers)", 1);
            }
        }
        System.exit(run(backend, n, keys, delay, parallelism, conf));
    }

    private static String value(String[] args, int i, String flag) {
        if (i >= args.length) {
            System.err.println(flag + " needs a value");
            System.exit(2);
        }
        return args[i];
    }

    static int run(String backend, long n, int keyCount, long delay, int parallelism, Configuration conf) throws Exception {
        conf.set(StateBackendFactory.STATE_BACKEND, backend);
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(parallelism);
        env.getConfig().enableObjectReuse();
        final int k = keyCount;
        final long timerDelay = Math.max(delay, 0);
        WatermarkStrategy<Long> watermarks = delay < 0
                ? WatermarkStrategy.noWatermarks()
                : WatermarkStrategy.forMonotonousTimestamps();
        env.fromSource(new XorShiftSource<>(n, (i, x) -> Math.floorMod(x, (long) k), Types.LONG, true),
                        watermarks, "xorshift-keys")
                .keyBy(key -> key, Types.LONG)
                .process(new RegisterAndFire(timerDelay)).name("timers")
                .returns(Types.LONG)
                .addSink(new DiscardingSink<>()).name("discard");

        String mode = delay < 0 ? "bulk" : "rolling";
        System.out.printf("INFO runtime=runnel workload=timers backend=%s mode=%s N=%d keys=%d delay_ms=%s parallelism=%d conf=%s java=%s max_heap_mb=%d%n",
                backend, mode, n, keyCount, delay < 0 ? "-" : Long.toString(delay), parallelism, conf,
                System.getProperty("java.version"), Runtime.getRuntime().maxMemory() >> 20);
        long[] expected = expected(n, keyCount, timerDelay);
        HeapSampler sampler = HeapSampler.start();
        XorShiftSource.EMITTED.set(0);
        long t0 = System.nanoTime();
        JobExecutionResult result = env.execute("bench-timers-" + backend);
        long elapsed = System.nanoTime() - t0;
        long peakHeap = sampler.stop();
        Map<String, Object> acc = result.getAllAccumulatorResults();
        long fired = (Long) acc.get("fired");
        long hash = (Long) acc.get("hash");
        long outOfOrder = (Long) acc.get("out_of_order");
        long records = XorShiftSource.EMITTED.get();
        boolean ok = records == n && fired == expected[0] && hash == expected[1] && outOfOrder == 0;
        System.out.printf("CHECK workload=timers registered=%d fired=%d hash=%s out_of_order=%d expected(fired/hash)=%d/%s ok=%s%n",
                records, fired, Checksums.hex(hash), outOfOrder, expected[0], Checksums.hex(expected[1]), ok);
        if (!ok) {
            System.out.println("ERROR result verification failed");
        }
        double seconds = elapsed / 1e9;
        System.out.printf(Locale.ROOT,
                "RESULT workload=timers backend=%s mode=%s records=%d timers=%d seconds=%.3f records_per_s=%.0f "
                        + "peak_heap_used_mb=%d peak_rss_mb=%d checksum=%s%n",
                backend, mode, records, fired, seconds, records / seconds, peakHeap >> 20, peakRssKb() >> 10,
                Checksums.hex(hash));
        return ok ? 0 : 1;
    }

    /** Registers one timer per record and, when it fires, adds it to the subtask's counters. */
    static final class RegisterAndFire extends KeyedProcessFunction<Long, Long, Long> {
        private final long delay;
        private long fired;
        private long hash;
        private long outOfOrder;
        private long lastFired = Long.MIN_VALUE;

        RegisterAndFire(long delay) {
            this.delay = delay;
        }

        @Override
        public void processElement(Long key, Context ctx, Collector<Long> out) {
            ctx.timerService().registerEventTimeTimer(ctx.timestamp() + delay);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<Long> out) {
            fired++;
            hash += timerEntry(ctx.getCurrentKey(), timestamp);
            if (timestamp < lastFired) {
                outOfOrder++;
            }
            lastFired = timestamp;
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("fired", new LongCounter(fired));
            getRuntimeContext().addAccumulator("hash", new LongCounter(hash));
            getRuntimeContext().addAccumulator("out_of_order", new LongCounter(outOfOrder));
        }
    }

    /** A well-mixed 64-bit value of one (key, timestamp) pair; summed, so order does not matter. */
    static long timerEntry(long key, long timestamp) {
        long h = key * 0x9E3779B97F4A7C15L + timestamp;
        h ^= h >>> 33;
        h *= 0xFF51AFD7ED558CCDL;
        h ^= h >>> 33;
        h *= 0xC4CEB93FE1A85EC5L;
        return h ^ (h >>> 33);
    }

    /** Fired count and hash the job must produce: timestamps are distinct, so no timer is deduplicated. */
    static long[] expected(long n, int keys, long delay) {
        long x = XorShiftSource.SEED;
        long hash = 0;
        for (long i = 0; i < n; i++) {
            x = XorShiftSource.step(x);
            hash += timerEntry(Math.floorMod(x, (long) keys), i + delay);
        }
        return new long[] {n, hash};
    }

    /** Peak resident set of this process in KiB from /proc (Linux), or -1 where unavailable. */
    static long peakRssKb() {
        try {
            for (String line : Files.readAllLines(Path.of("/proc/self/status"))) {
                if (line.startsWith("VmHWM:")) {
                    return Long.parseLong(line.replaceAll("[^0-9]", ""));
                }
            }
        } catch (IOException | NumberFormatException e) {
            // not Linux: report unknown rather than fail the benchmark
        }
        return -1;
    }

    /** Samples used heap every 10 ms on a daemon thread; garbage not yet collected counts as used. */
    static final class HeapSampler implements Runnable {
        private final MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
        private final Thread thread = new Thread(this, "heap-sampler");
        private volatile boolean running = true;
        private volatile long peak;

        static HeapSampler start() {
            HeapSampler s = new HeapSampler();
            s.thread.setDaemon(true);
            s.thread.start();
            return s;
        }

        @Override
        public void run() {
            while (running) {
                peak = Math.max(peak, memory.getHeapMemoryUsage().getUsed());
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        }

        long stop() throws InterruptedException {
            running = false;
            thread.interrupt();
            thread.join();
            return Math.max(peak, memory.getHeapMemoryUsage().getUsed());
        }
    }
}
