package dev.runnel.examples.bench;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.accumulators.LongCounter;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import dev.runnel.util.Collector;
import java.util.Locale;
import java.util.Map;

/**
 * POJO records against tuple records through the same W1-style job (the word count of
 * {@link Bench}): the same generator, the same keying, the same rolling count in value state and the
 * same checksum sink, with only the record type changed.
 *
 * <pre>
 *   PojoBench pojo|tuple [N] [--object-reuse]      (default N 20000000, parallelism 2, heap state)
 * </pre>
 *
 * <p>Record {@code i} is the word {@code "w" + (xorshift_i mod 100000)} and its index, as a POJO
 * {@link WordEvent} {@code {String word; long n}} or as a {@code Tuple2<String, Long>}. The source
 * runs at parallelism 2 and the keyed count too, so every record crosses the keyBy network edge,
 * where the local shuffle copies it with the edge's serializer ({@code PojoSerializer} or
 * {@code TupleSerializer}). The count emits a {@link WordCount} POJO or a {@code Tuple2<String, Long>},
 * and the sink folds them into W1's checksum, verified against a sequential computation of the
 * generator. Generic types are disabled, so a POJO that fell back to Kryo would fail the job.
 * Prints {@code RESULT workload=pojo-wordcount|tuple-wordcount records=N seconds=s records_per_s=r
 * checksum=hex}.
 */
public final class PojoBench {

    private PojoBench() {}

    /** The input record as a POJO. */
    public static class WordEvent {
        public String word;
        public long n;

        public WordEvent() {}

        WordEvent(String word, long n) {
            this.word = word;
            this.n = n;
        }
    }

    /** The output record as a POJO: a word and its count so far. */
    public static class WordCount {
        public String word;
        public long count;

        public WordCount() {}

        WordCount(String word, long count) {
            this.word = word;
            this.count = count;
        }
    }

    public static void main(String[] args) throws Exception {
        if (args.length < 1 || !(args[0].equals("pojo") || args[0].equals("tuple"))) {
            System.err.println("usage: PojoBench pojo|tuple [N] [--object-reuse]");
            System.exit(2);
        }
        long n = 20_000_000L;
        boolean objectReuse = false;
        for (int i = 1; i < args.length; i++) {
            if (args[i].equals("--object-reuse")) {
                objectReuse = true;
            } else {
                n = Bench.number(args[i], "N (the record count)", 1);
            }
        }
        System.exit(run(args[0].equals("pojo"), n, objectReuse));
    }

    static int run(boolean pojo, long n, boolean objectReuse) throws Exception {
        String label = pojo ? "pojo-wordcount" : "tuple-wordcount";
        Configuration conf = new Configuration();
        conf.set(StateBackendFactory.STATE_BACKEND, "heap");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(Bench.PARALLELISM);
        env.getConfig().disableGenericTypes();
        if (objectReuse) {
            env.getConfig().enableObjectReuse();
        }
        if (pojo) {
            buildPojo(env, n);
        } else {
            buildTuple(env, n);
        }
        System.out.printf("INFO runtime=runnel workload=%s N=%d parallelism=%d state_backend=heap object_reuse=%s java=%s%n",
                label, n, Bench.PARALLELISM, objectReuse, System.getProperty("java.version"));
        XorShiftSource.EMITTED.set(0);
        long t0 = System.nanoTime();
        JobExecutionResult result = env.execute("bench-" + label);
        long elapsed = System.nanoTime() - t0;
        return report(label, n, elapsed, result);
    }

    private static void buildPojo(StreamExecutionEnvironment env, long n) {
        env.fromSource(new XorShiftSource<>(n, (i, x) -> new WordEvent("w" + Math.floorMod(x, Bench.WORDS), i),
                        TypeInformation.of(WordEvent.class), false), WatermarkStrategy.noWatermarks(), "xorshift-pojos")
                .keyBy(e -> e.word, Types.STRING)
                .process(new PojoCount()).name("rolling-count")
                .addSink(new PojoSink()).name("checksum-sink");
    }

    private static void buildTuple(StreamExecutionEnvironment env, long n) {
        env.fromSource(new XorShiftSource<>(n, (i, x) -> Tuple2.of("w" + Math.floorMod(x, Bench.WORDS), i),
                        Types.<Tuple2<String, Long>>TUPLE(Types.STRING, Types.LONG), false),
                        WatermarkStrategy.noWatermarks(), "xorshift-tuples")
                .keyBy(t -> t.f0, Types.STRING)
                .process(new TupleCount()).name("rolling-count")
                .addSink(new Bench.WordCountSink()).name("checksum-sink");
    }

    private static int report(String label, long n, long elapsed, JobExecutionResult result) {
        Map<String, Object> acc = result.getAllAccumulatorResults();
        long records = XorShiftSource.EMITTED.get();
        long hash = (Long) acc.get("hash");
        long[] e = Bench.expectedWordCount(n);
        boolean ok = records == n && (Long) acc.get("records") == n && e[0] == (Long) acc.get("keys")
                && e[1] == (Long) acc.get("sum_rolling_counts") && e[2] == hash;
        System.out.printf("CHECK workload=%s sink_records=%s distinct_keys=%s sum_of_rolling_counts=%s final_map_hash=%s"
                        + " expected(keys/sum_rolling/hash)=%s/%s/%s ok=%s%n", label, acc.get("records"), acc.get("keys"),
                acc.get("sum_rolling_counts"), Checksums.hex(hash), e[0], e[1], Checksums.hex(e[2]), ok);
        if (!ok) {
            System.out.println("ERROR result verification failed");
        }
        double seconds = elapsed / 1e9;
        System.out.printf(Locale.ROOT, "RESULT workload=%s records=%d seconds=%.3f records_per_s=%.0f checksum=%s%n",
                label, records, seconds, records / seconds, Checksums.hex(hash));
        return ok ? 0 : 1;
    }

    /** W1's rolling count, POJO in and out. */
    static final class PojoCount extends KeyedProcessFunction<String, WordEvent, WordCount> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(WordEvent event, Context ctx, Collector<WordCount> out) throws Exception {
            Long c = count.value();
            long next = c == null ? 1L : c + 1L;
            count.update(next);
            out.collect(new WordCount(event.word, next));
        }
    }

    /** W1's rolling count, tuple in and out. */
    static final class TupleCount extends KeyedProcessFunction<String, Tuple2<String, Long>, Tuple2<String, Long>> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(Tuple2<String, Long> event, Context ctx, Collector<Tuple2<String, Long>> out)
                throws Exception {
            Long c = count.value();
            long next = c == null ? 1L : c + 1L;
            count.update(next);
            out.collect(Tuple2.of(event.f0, next));
        }
    }

    /** W1's checksum sink over POJOs; the tuple run uses {@link Bench}'s own. */
    static final class PojoSink extends RichSinkFunction<WordCount> {
        private long records;
        private long keys;
        private long sumRolling;
        private long hash;

        @Override
        public void invoke(WordCount v, Context ctx) {
            long c = v.count;
            records++;
            sumRolling += c;
            if (c == 1) {
                keys++;
            }
            hash += Checksums.rollingWordEntry(v.word, c);
        }

        @Override
        public void close() {
            getRuntimeContext().addAccumulator("records", new LongCounter(records));
            getRuntimeContext().addAccumulator("keys", new LongCounter(keys));
            getRuntimeContext().addAccumulator("sum_rolling_counts", new LongCounter(sumRolling));
            getRuntimeContext().addAccumulator("hash", new LongCounter(hash));
        }
    }
}
