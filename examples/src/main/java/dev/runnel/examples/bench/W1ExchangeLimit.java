package dev.runnel.examples.bench;

import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;

import java.lang.invoke.MethodHandles;
import java.lang.invoke.VarHandle;
import java.util.HashMap;

/**
 * What W1 could cost on P cores with no framework but with the exchange every keyed job has: P producers each
 * make every P-th record of the peer's generator (the split {@code Bench}'s source subtasks make), route each
 * word by its key group to one of P counters in 512-word batches through single-producer single-consumer rings,
 * and the counters keep a {@code HashMap} count per word and fold each rolling count into the peer's checksum.
 * Unlike {@link W1PartitionedLimit} a word is made on one thread and counted on another, as in any streaming
 * engine; like it, there is no state backend, no checkpoint, no mailbox and no wake-up protocol. Two schedules of
 * the same work:
 *
 * <ul>
 *   <li>{@code threads}: 2P threads, a producer and a counter each (a task per thread, as in {@code Bench}); a
 *       thread with nothing to do, or a full ring, yields its core.
 *   <li>{@code coop}: P threads, each a producer and a counter by turns: it makes a run of records, counts the
 *       batches that fill for its own counter at once (the words still in its cache) and sends the others, then
 *       counts what the other threads sent it.
 * </ul>
 *
 * <p>And three versions of the counting, to tell the costs of a W1 record apart:
 *
 * <ul>
 *   <li>{@code bare}: a {@code long} field per word, the count folded at once (as {@code W1Limit}).
 *   <li>{@code boxed}: the same field, but the job's user functions written by hand around it: the count read as a
 *       {@code Long} (null before the first), incremented, written back from a {@code Long}, and each result a new
 *       {@code Tuple2<String, Long>} handed to a sink method that folds it. The difference to {@code bare} is what
 *       the job's own objects cost any engine that keeps a primitive count as Runnel's heap backend does.
 *   <li>{@code longmap}: as {@code boxed}, but the count is a {@code Long} object in a {@code HashMap<String, Long>}
 *       replaced on every record, as a heap backend that stores the value object (Flink's) keeps it.
 * </ul>
 *
 * <p>Runs twice in one JVM and prints a {@code cold} and a {@code warm} {@code RESULT} line, like
 * {@link W1PartitionedLimit}; the checksum equals the peer's for the same N.
 *
 * <pre>
 *   java -Xmx4g -cp ... dev.runnel.examples.bench.W1ExchangeLimit [N] [P] [threads|coop] [bare|boxed|longmap]
 * </pre>
 */
public final class W1ExchangeLimit {

    /** Words a batch carries between threads, as {@code shuffle.local.batch-size}'s default. */
    static final int BATCH = 512;
    /** Batches a ring holds. */
    private static final int RING = 8;
    /** Flink's and Runnel's default max parallelism for a job of this size. */
    private static final int MAX_PARALLELISM = 128;

    private W1ExchangeLimit() {}

    public static void main(String[] args) throws InterruptedException {
        long n = -1;
        int parallelism = 0;
        String schedule = "threads";
        String objects = "bare";
        try {
            n = args.length > 0 ? Long.parseLong(args[0]) : 20_000_000L;
            parallelism = args.length > 1 ? Integer.parseInt(args[1]) : 2;
            schedule = args.length > 2 ? args[2] : schedule;
            objects = args.length > 3 ? args[3] : objects;
        } catch (NumberFormatException e) {
            n = -1;
        }
        boolean valid = (schedule.equals("threads") || schedule.equals("coop"))
                && (objects.equals("bare") || objects.equals("boxed") || objects.equals("longmap"));
        if (n < 0 || parallelism < 1 || args.length > 4 || !valid) {
            System.err.println("usage: W1ExchangeLimit [N] [P] [threads|coop] [bare|boxed|longmap]   (N: records >= 0, default"
                    + " 20000000; P: parallelism >= 1, default 2; the schedule, default threads; the counting, default"
                    + " bare); got: " + String.join(" ", args));
            System.exit(2);
        }
        boolean coop = schedule.equals("coop");
        for (String round : new String[] {"cold", "warm"}) {
            long start = System.nanoTime();
            long hash = run(n, parallelism, coop, objects);
            double seconds = (System.nanoTime() - start) / 1e9;
            System.out.printf("RESULT workload=wordcount-heap-exchange-limit-p%d-%s-%s-%s records=%d seconds=%.3f "
                    + "records_per_s=%.0f checksum=%s%n", parallelism, schedule, objects, round, n, seconds,
                    n / seconds, Checksums.hex(hash));
        }
    }

    /** The W1 checksum of the first {@code n} records, exchanged between {@code parallelism} producers and counters. */
    static long run(long n, int parallelism, boolean coop, String counting) throws InterruptedException {
        Ring[][] rings = new Ring[parallelism][parallelism]; // [from producer][to counter]
        for (Ring[] row : rings) {
            for (int c = 0; c < parallelism; c++) {
                row[c] = new Ring();
            }
        }
        Counter[] counters = new Counter[parallelism];
        for (int c = 0; c < parallelism; c++) {
            counters[c] = switch (counting) {
                case "bare" -> new Counter(c, rings);
                case "boxed" -> new BoxedCounter(c, rings);
                case "longmap" -> new LongMapCounter(c, rings);
                default -> throw new IllegalArgumentException("no counting '" + counting + "': bare, boxed or longmap");
            };
        }
        Thread[] workers = new Thread[coop ? parallelism : 2 * parallelism];
        for (int p = 0; p < parallelism; p++) {
            Producer producer = new Producer(n, p, rings);
            Counter counter = counters[p];
            if (coop) {
                workers[p] = new Thread(() -> cooperate(producer, counter), "w1-coop-" + p);
            } else {
                workers[p] = new Thread(producer::runAlone, "w1-producer-" + p);
                workers[parallelism + p] = new Thread(counter::runAlone, "w1-counter-" + p);
            }
        }
        for (Thread worker : workers) {
            worker.start();
        }
        long hash = 0;
        for (Thread worker : workers) {
            worker.join(); // join makes the workers' writes visible here
        }
        for (Counter counter : counters) {
            hash += counter.hash;
        }
        return hash;
    }

    /** The coop schedule: a producer and the counter of the same index take turns on one thread. */
    private static void cooperate(Producer producer, Counter counter) {
        producer.local = counter;
        while (!producer.finished()) {
            producer.produceRun();
            counter.drain();
        }
        while (!counter.finished()) {
            if (!counter.drain()) {
                Thread.yield();
            }
        }
    }

    /** A count per word. */
    private static final class Count {
        long value;
    }

    /** Makes the records {@code i} with {@code i mod P == index} and routes each word by its key group. */
    private static final class Producer {
        private final long n;
        private final int index;
        private final Ring[] out;
        private final String[][] batches;
        private final int[] fill;
        private long next;
        private long x = XorShiftSource.SEED;
        private long generated;
        /**
         * The coop schedule's own counter: fed directly, and drained while a ring to another counter is full;
         * null in the threads schedule.
         */
        Counter local;

        Producer(long n, int index, Ring[][] rings) {
            this.n = n;
            this.index = index;
            this.out = rings[index];
            this.batches = new String[out.length][BATCH];
            this.fill = new int[out.length];
            this.next = index;
        }

        boolean finished() {
            return next >= n;
        }

        void runAlone() {
            while (!finished()) {
                produceRun();
            }
        }

        /** Makes up to a batch's worth of records. */
        void produceRun() {
            int stride = out.length;
            for (int r = 0; r < BATCH && next < n; r++) {
                while (generated <= next) { // every record steps the generator once, as the source's split does
                    x = XorShiftSource.step(x);
                    generated++;
                }
                long k = Math.floorMod(x, (long) Bench.WORDS);
                String word = "w" + k;
                int to = KeyGroupRangeAssignment.assignKeyToParallelOperator(word, MAX_PARALLELISM, stride);
                String[] batch = batches[to];
                batch[fill[to]++] = word;
                if (fill[to] == BATCH) {
                    send(to, batch, BATCH);
                }
                next += stride;
            }
            if (finished()) {
                for (int to = 0; to < stride; to++) {
                    send(to, batches[to], fill[to]);
                    out[to].close();
                }
            }
        }

        private void send(int to, String[] batch, int size) {
            if (local != null && to == index) {
                local.count(batch, size);
            } else {
                Batch sent = new Batch(batch, size);
                while (!out[to].offer(sent)) {
                    if (local == null || !local.drain()) {
                        Thread.yield();
                    }
                }
                batches[to] = new String[BATCH];
            }
            fill[to] = 0;
        }
    }

    /** Counts the words routed to one index and folds the rolling counts into its checksum. */
    private static class Counter {
        private final Ring[] in;
        private final HashMap<String, Count> counts = new HashMap<>();
        long hash;

        Counter(int index, Ring[][] rings) {
            this.in = new Ring[rings.length];
            for (int p = 0; p < rings.length; p++) {
                in[p] = rings[p][index];
            }
        }

        void runAlone() {
            while (!finished()) {
                if (!drain()) {
                    Thread.yield();
                }
            }
        }

        boolean finished() {
            for (Ring ring : in) {
                if (!ring.drained()) {
                    return false;
                }
            }
            return true;
        }

        /** Counts every batch queued now; whether there was one. */
        boolean drain() {
            boolean any = false;
            for (Ring ring : in) {
                for (Batch batch = ring.poll(); batch != null; batch = ring.poll()) {
                    count(batch.words, batch.size);
                    any = true;
                }
            }
            return any;
        }

        void count(String[] words, int size) {
            for (int i = 0; i < size; i++) {
                String word = words[i];
                hash += Checksums.rollingWordEntry(word, ++countOf(word).value);
            }
        }

        /** The word's count, made at its first occurrence. */
        final Count countOf(String word) {
            Count count = counts.get(word);
            if (count == null) {
                count = new Count();
                counts.put(word, count);
            }
            return count;
        }

        /** The job's sink, by hand: folds a result into the checksum. */
        final void sink(Tuple2<String, Long> result) {
            hash += Checksums.rollingWordEntry(result.f0, result.f1);
        }
    }

    /** The {@code boxed} counting: a primitive count per word, with the job's boxes and {@code Tuple2} around it. */
    private static final class BoxedCounter extends Counter {

        BoxedCounter(int index, Ring[][] rings) {
            super(index, rings);
        }

        @Override
        void count(String[] words, int size) {
            for (int i = 0; i < size; i++) {
                String word = words[i];
                Count count = countOf(word);
                Long c = count.value == 0 ? null : Long.valueOf(count.value); // ValueState<Long>.value()
                long next = c == null ? 1L : c + 1L;
                Long updated = next; // ValueState<Long>.update(next)
                count.value = updated;
                sink(Tuple2.of(word, next));
            }
        }
    }

    /** The {@code longmap} counting: a {@code Long} object per word, replaced on every record, and {@code Tuple2}s. */
    private static final class LongMapCounter extends Counter {
        private final HashMap<String, Long> state = new HashMap<>();

        LongMapCounter(int index, Ring[][] rings) {
            super(index, rings);
        }

        @Override
        void count(String[] words, int size) {
            for (int i = 0; i < size; i++) {
                String word = words[i];
                Long c = state.get(word);
                long next = c == null ? 1L : c + 1L;
                state.put(word, next);
                sink(Tuple2.of(word, next));
            }
        }
    }

    /** A batch of words sent to another thread. */
    private record Batch(String[] words, int size) {}

    /** A bounded single-producer single-consumer ring of batches with a closed flag. */
    private static final class Ring {
        private static final VarHandle TAIL;
        private static final VarHandle HEAD;

        static {
            try {
                TAIL = MethodHandles.lookup().findVarHandle(Ring.class, "tail", long.class);
                HEAD = MethodHandles.lookup().findVarHandle(Ring.class, "head", long.class);
            } catch (ReflectiveOperationException e) {
                throw new ExceptionInInitializerError(e);
            }
        }

        private final Batch[] slots = new Batch[RING];
        private long p0, p1, p2, p3, p4, p5, p6; // keeps head and tail on separate cache lines
        private long head;
        private long q0, q1, q2, q3, q4, q5, q6;
        private long tail;
        private volatile boolean closed;

        boolean offer(Batch batch) {
            long t = tail;
            if (t - (long) HEAD.getAcquire(this) >= RING) {
                return false;
            }
            slots[(int) (t % RING)] = batch;
            TAIL.setRelease(this, t + 1);
            return true;
        }

        Batch poll() {
            long h = head;
            if (h >= (long) TAIL.getAcquire(this)) {
                return null;
            }
            int i = (int) (h % RING);
            Batch batch = slots[i];
            slots[i] = null;
            HEAD.setRelease(this, h + 1);
            return batch;
        }

        void close() {
            closed = true; // a volatile write after the last offer's release
        }

        /** Consumer only: closed and nothing left. */
        boolean drained() {
            return closed && head >= (long) TAIL.getAcquire(this);
        }
    }
}
