package dev.runnel.examples.bench;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.core.io.InputStatus;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.io.Serializable;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;

/**
 * The benchmark workloads' bounded source (docs/BENCHMARKS.md, "The workloads") over the xorshift64
 * sequence with seed 42: reader {@code j} of {@code p} emits records {@code i} with
 * {@code i mod p == j}, in increasing {@code i}, stepping through the whole sequence. Together the
 * readers emit records {@code 0..N-1} exactly once, the same records the Flink peer
 * ({@code examples/flink-peer}) emits.
 */
public final class XorShiftSource<T> implements Source<T, XorShiftSource.Split, List<Integer>>, ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    public static final long SEED = 42L;

    /** Records emitted by all readers of this JVM (each reader adds its count when it closes). */
    public static final AtomicLong EMITTED = new AtomicLong();

    /** Checkpoints whose completion reader 0 was told of (W4 reports them). */
    public static final AtomicLong COMPLETED_CHECKPOINTS = new AtomicLong();

    /** Makes record {@code index} from the generator state {@code x}. */
    @FunctionalInterface
    public interface RecordFactory<T> extends Serializable {
        T create(long index, long x);
    }

    private final long n;
    private final RecordFactory<T> factory;
    private final TypeInformation<T> type;
    private final boolean timestampIsIndex;

    public XorShiftSource(long n, RecordFactory<T> factory, TypeInformation<T> type, boolean timestampIsIndex) {
        this.n = n;
        this.factory = factory;
        this.type = type;
        this.timestampIsIndex = timestampIsIndex;
    }

    /** One xorshift64 step. */
    public static long step(long x) {
        x ^= x << 13;
        x ^= x >>> 7;
        x ^= x << 17;
        return x;
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return type;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, Split> createReader(SourceReaderContext context) {
        return new Reader<>(context, factory, timestampIsIndex);
    }

    @Override
    public SplitEnumerator<Split, List<Integer>> createEnumerator(SplitEnumeratorContext<Split> context) {
        List<Integer> all = new ArrayList<>();
        for (int j = 0; j < context.currentParallelism(); j++) {
            all.add(j);
        }
        return new Enumerator(context, n, context.currentParallelism(), all);
    }

    @Override
    public SplitEnumerator<Split, List<Integer>> restoreEnumerator(SplitEnumeratorContext<Split> context,
            List<Integer> unassigned) {
        return new Enumerator(context, n, context.currentParallelism(), unassigned);
    }

    @Override
    public SimpleVersionedSerializer<Split> getSplitSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Split s) {
                DataOutputSerializer out = new DataOutputSerializer(32);
                out.writeInt(s.splitIndex);
                out.writeInt(s.stride);
                out.writeLong(s.n);
                out.writeLong(s.nextIndex);
                out.writeLong(s.x);
                return out.getCopyOfBuffer();
            }

            @Override
            public Split deserialize(int version, byte[] bytes) throws IOException {
                DataInputDeserializer in = new DataInputDeserializer(bytes);
                return new Split(in.readInt(), in.readInt(), in.readLong(), in.readLong(), in.readLong());
            }
        };
    }

    @Override
    public SimpleVersionedSerializer<List<Integer>> getEnumeratorCheckpointSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(List<Integer> unassigned) {
                DataOutputSerializer out = new DataOutputSerializer(16);
                out.writeInt(unassigned.size());
                unassigned.forEach(out::writeInt);
                return out.getCopyOfBuffer();
            }

            @Override
            public List<Integer> deserialize(int version, byte[] bytes) throws IOException {
                DataInputDeserializer in = new DataInputDeserializer(bytes);
                int size = in.readInt();
                List<Integer> list = new ArrayList<>();
                for (int i = 0; i < size; i++) {
                    list.add(in.readInt());
                }
                return list;
            }
        };
    }

    /** Split {@code j} of stride {@code p}, with its progress (next index and generator state). */
    public record Split(int splitIndex, int stride, long n, long nextIndex, long x) implements SourceSplit {
        @Override
        public String splitId() {
            return Integer.toString(splitIndex);
        }
    }

    private static final class Enumerator implements SplitEnumerator<Split, List<Integer>> {
        private final SplitEnumeratorContext<Split> context;
        private final long n;
        private final int stride;
        private final Deque<Integer> unassigned;
        private final List<Split> returned = new ArrayList<>();

        Enumerator(SplitEnumeratorContext<Split> context, long n, int stride, List<Integer> unassigned) {
            this.context = context;
            this.n = n;
            this.stride = stride;
            this.unassigned = new ArrayDeque<>(unassigned);
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {
            if (!returned.isEmpty()) {
                context.assignSplit(returned.remove(returned.size() - 1), subtaskId);
            } else if (unassigned.remove(subtaskId)) {
                context.assignSplit(new Split(subtaskId, stride, n, 0L, SEED), subtaskId);
            } else if (!unassigned.isEmpty()) {
                int j = unassigned.poll();
                context.assignSplit(new Split(j, stride, n, 0L, SEED), subtaskId);
            } else {
                context.signalNoMoreSplits(subtaskId);
            }
        }

        @Override
        public void addSplitsBack(List<Split> splits, int subtaskId) {
            returned.addAll(splits);
        }

        @Override
        public void addReader(int subtaskId) {}

        @Override
        public List<Integer> snapshotState(long checkpointId) {
            List<Integer> state = new ArrayList<>(unassigned);
            returned.forEach(s -> state.add(s.splitIndex()));
            return state;
        }

        @Override
        public void close() {}
    }

    private static final class Reader<T> implements SourceReader<T, Split> {
        private final SourceReaderContext context;
        private final RecordFactory<T> factory;
        private final boolean timestampIsIndex;
        private boolean hasSplit;
        private int splitIndex;
        private int stride;
        private long n;
        private long next;
        private long x;
        private long nextTarget;
        private boolean noMoreSplits;
        private CompletableFuture<Void> available = new CompletableFuture<>();
        private long emitted;

        Reader(SourceReaderContext context, RecordFactory<T> factory, boolean timestampIsIndex) {
            this.context = context;
            this.factory = factory;
            this.timestampIsIndex = timestampIsIndex;
        }

        @Override
        public void start() {
            context.sendSplitRequest();
        }

        @Override
        public InputStatus pollNext(ReaderOutput<T> output) {
            if (hasSplit) {
                long target = nextTarget;
                if (target < n) {
                    long s = x;
                    long i = next;
                    while (i <= target) {
                        s = step(s);
                        i++;
                    }
                    x = s;
                    next = i;
                    nextTarget = target + stride;
                    emitted++;
                    if (timestampIsIndex) {
                        output.collect(factory.create(target, s), target);
                    } else {
                        output.collect(factory.create(target, s));
                    }
                    return InputStatus.MORE_AVAILABLE;
                }
                hasSplit = false;
                context.sendSplitRequest();
            }
            if (noMoreSplits) {
                return InputStatus.END_OF_INPUT;
            }
            if (available.isDone()) {
                available = new CompletableFuture<>();
            }
            return InputStatus.NOTHING_AVAILABLE;
        }

        @Override
        public List<Split> snapshotState(long checkpointId) {
            return hasSplit ? List.of(new Split(splitIndex, stride, n, next, x)) : List.of();
        }

        @Override
        public CompletableFuture<Void> isAvailable() {
            return available;
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) {
            if (context.getIndexOfSubtask() == 0) {
                COMPLETED_CHECKPOINTS.incrementAndGet();
            }
        }

        @Override
        public void addSplits(List<Split> splits) {
            if (splits.size() != 1 || hasSplit) {
                throw new IllegalStateException("expected exactly one split at a time, got " + splits);
            }
            Split s = splits.get(0);
            hasSplit = true;
            splitIndex = s.splitIndex();
            stride = s.stride();
            n = s.n();
            next = s.nextIndex();
            x = s.x();
            nextTarget = next + Math.floorMod(splitIndex - next, (long) stride);
            available.complete(null);
        }

        @Override
        public void notifyNoMoreSplits() {
            noMoreSplits = true;
            available.complete(null);
        }

        @Override
        public void close() {
            EMITTED.addAndGet(emitted);
            emitted = 0;
        }
    }
}
