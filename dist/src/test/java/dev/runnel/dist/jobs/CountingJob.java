package dev.runnel.dist.jobs;

import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;

/**
 * A test job for the cluster's integration tests, submitted as a jar with {@code bin/runnel run}: counts
 * {@code --records} numbers over {@code --keys} keys in keyed state (uids on every operator, so savepoints
 * restore at another parallelism), slowed by a sleep of 1 ms every {@code --throttle} records so that it
 * outlives checkpoints and kills, and prints {@code (<label><key>,count)} per record. With exactly-once state the
 * largest count printed per key is exactly the number of records of that key. Checkpoints every
 * {@code --checkpoint-interval} ms when given.
 */
public final class CountingJob {

    private CountingJob() {}

    public static void main(String[] args) throws Exception {
        long records = 100_000;
        int keys = 40;
        int throttle = 20;
        long checkpointInterval = 0;
        String label = "k";
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--records" -> records = Long.parseLong(args[i + 1]);
                case "--keys" -> keys = Integer.parseInt(args[i + 1]);
                case "--throttle" -> throttle = Integer.parseInt(args[i + 1]);
                case "--checkpoint-interval" -> checkpointInterval = Long.parseLong(args[i + 1]);
                case "--label" -> label = args[i + 1];
                default -> throw new IllegalArgumentException("unknown argument " + args[i]);
            }
        }
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        if (checkpointInterval > 0) {
            env.enableCheckpointing(checkpointInterval);
        }
        int keyCount = keys;
        String prefix = label;
        env.fromSequence(0, records - 1).uid("numbers")
                .map(new Throttle(throttle)).returns(Types.LONG).uid("throttle")
                .keyBy(n -> n % keyCount)
                .map(new CountPerKey(keyCount, prefix)).returns(Types.STRING).uid("count")
                .print();
        env.execute("counting job");
    }

    /** Sleeps 1 ms every {@code every} records. */
    static final class Throttle implements MapFunction<Long, Long> {
        private final int every;

        Throttle(int every) {
            this.every = every;
        }

        @Override
        public Long map(Long value) throws Exception {
            if (every > 0 && value % every == 0) {
                Thread.sleep(1);
            }
            return value;
        }
    }

    /** The count of the record's key so far, as {@code (key,count)}. */
    static final class CountPerKey extends RichMapFunction<Long, String> {
        private final int keys;
        private final String label;
        private transient ValueState<Long> count;

        CountPerKey(int keys, String label) {
            this.keys = keys;
            this.label = label;
        }

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public String map(Long value) throws Exception {
            long next = (count.value() == null ? 0 : count.value()) + 1;
            count.update(next);
            return "(" + label + (value % keys) + "," + next + ")";
        }
    }
}
