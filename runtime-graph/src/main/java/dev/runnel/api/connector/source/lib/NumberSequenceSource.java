package dev.runnel.api.connector.source.lib;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Iterator;
import java.util.List;
import java.util.NoSuchElementException;

/**
 * The numbers {@code from..to} (inclusive), split into one range per reader; every number is emitted
 * exactly once. Bounded. Used by {@code env.fromSequence(from, to)}.
 */
public final class NumberSequenceSource implements Source<Long, NumberSequenceSource.NumberSequenceSplit,
        Collection<NumberSequenceSource.NumberSequenceSplit>>, ResultTypeQueryable<Long> {

    private static final long serialVersionUID = 1L;

    private final long from;
    private final long to;

    public NumberSequenceSource(long from, long to) {
        if (from > to) {
            throw new IllegalArgumentException("'from' (" + from + ") must be <= 'to' (" + to + ")");
        }
        this.from = from;
        this.to = to;
    }

    public long getFrom() {
        return from;
    }

    public long getTo() {
        return to;
    }

    @Override
    public TypeInformation<Long> getProducedType() {
        return Types.LONG;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext readerContext) {
        return new IteratorSourceReader<>(readerContext);
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> enumContext) {
        return new IteratorSourceEnumerator<>(enumContext, splitRange(from, to, enumContext.currentParallelism()));
    }

    @Override
    public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
            SplitEnumeratorContext<NumberSequenceSplit> enumContext, Collection<NumberSequenceSplit> checkpoint) {
        return new IteratorSourceEnumerator<>(enumContext, checkpoint);
    }

    /**
     * Splits {@code [from, to]} into {@code n} contiguous ranges as Flink's NumberSequenceIterator
     * does: each holds {@code size / n} numbers and the first {@code size % n} one more (fewer ranges,
     * of one number each, when there are fewer numbers than readers). So a reader starts where it would
     * in Flink, which decides what a rate-limited or unbounded generator emits first: e.g. a
     * {@code DataGeneratorSource} of {@code Long.MAX_VALUE} records on 4 readers starts them at 0, 2^61,
     * 2^62 and 3 * 2^61.
     */
    static List<NumberSequenceSplit> splitRange(long from, long to, int n) {
        List<NumberSequenceSplit> splits = new ArrayList<>();
        // Count as unsigned-safe: the range may span the whole long domain.
        java.math.BigInteger size = java.math.BigInteger.valueOf(to).subtract(java.math.BigInteger.valueOf(from))
                .add(java.math.BigInteger.ONE);
        java.math.BigInteger[] perAndExtra = size.divideAndRemainder(java.math.BigInteger.valueOf(n));
        long extra = perAndExtra[1].longValueExact();
        java.math.BigInteger start = java.math.BigInteger.valueOf(from);
        for (int i = 0; i < n; i++) {
            java.math.BigInteger length = i < extra ? perAndExtra[0].add(java.math.BigInteger.ONE) : perAndExtra[0];
            if (length.signum() == 0) {
                break;
            }
            java.math.BigInteger end = start.add(length).subtract(java.math.BigInteger.ONE);
            splits.add(new NumberSequenceSplit(Integer.toString(i), start.longValueExact(), end.longValueExact()));
            start = end.add(java.math.BigInteger.ONE);
        }
        return splits;
    }

    @Override
    public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
        return new SplitSerializer();
    }

    @Override
    public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
        return new SimpleVersionedSerializer<>() {
            @Override
            public int getVersion() {
                return 1;
            }

            @Override
            public byte[] serialize(Collection<NumberSequenceSplit> splits) throws IOException {
                DataOutputSerializer out = new DataOutputSerializer(64);
                out.writeVarInt(splits.size());
                for (NumberSequenceSplit split : splits) {
                    SplitSerializer.write(split, out);
                }
                return out.getCopyOfBuffer();
            }

            @Override
            public Collection<NumberSequenceSplit> deserialize(int version, byte[] bytes) throws IOException {
                SplitSerializer.checkVersion(version);
                DataInputDeserializer in = new DataInputDeserializer(bytes);
                int n = in.readLength("number sequence splits", 17);
                List<NumberSequenceSplit> splits = new ArrayList<>(n);
                for (int i = 0; i < n; i++) {
                    splits.add(SplitSerializer.read(in));
                }
                return splits;
            }
        };
    }

    /** A range {@code [from, to]} still to be emitted. */
    public static final class NumberSequenceSplit implements IteratorSourceSplit<Long, NumberSequenceIterator> {

        private final String splitId;
        private final long from;
        private final long to;

        public NumberSequenceSplit(String splitId, long from, long to) {
            if (from > to) {
                throw new IllegalArgumentException("split " + splitId + ": from " + from + " > to " + to);
            }
            this.splitId = splitId;
            this.from = from;
            this.to = to;
        }

        @Override
        public String splitId() {
            return splitId;
        }

        public long from() {
            return from;
        }

        public long to() {
            return to;
        }

        @Override
        public NumberSequenceIterator getIterator() {
            return new NumberSequenceIterator(from, to);
        }

        @Override
        public IteratorSourceSplit<Long, NumberSequenceIterator> getUpdatedSplitForIterator(
                NumberSequenceIterator iterator) {
            return new NumberSequenceSplit(splitId, iterator.next, to);
        }

        @Override
        public String toString() {
            return "NumberSequenceSplit{" + splitId + ": [" + from + ", " + to + "]}";
        }
    }

    /** Counts from {@code from} to {@code to} inclusive without overflowing at Long.MAX_VALUE. */
    public static final class NumberSequenceIterator implements Iterator<Long> {
        private long next;
        private final long last;
        private boolean done;

        NumberSequenceIterator(long from, long to) {
            this.next = from;
            this.last = to;
        }

        @Override
        public boolean hasNext() {
            return !done;
        }

        @Override
        public Long next() {
            if (done) {
                throw new NoSuchElementException();
            }
            long value = next;
            if (value == last) {
                done = true;
            } else {
                next = value + 1;
            }
            return value;
        }
    }

    private static final class SplitSerializer implements SimpleVersionedSerializer<NumberSequenceSplit> {
        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(NumberSequenceSplit split) throws IOException {
            DataOutputSerializer out = new DataOutputSerializer(32);
            write(split, out);
            return out.getCopyOfBuffer();
        }

        @Override
        public NumberSequenceSplit deserialize(int version, byte[] bytes) throws IOException {
            checkVersion(version);
            return read(new DataInputDeserializer(bytes));
        }

        static void write(NumberSequenceSplit split, DataOutputSerializer out) {
            byte[] id = split.splitId.getBytes(java.nio.charset.StandardCharsets.UTF_8);
            out.writeVarInt(id.length);
            out.write(id, 0, id.length);
            out.writeLong(split.from);
            out.writeLong(split.to);
        }

        static NumberSequenceSplit read(DataInputDeserializer in) throws IOException {
            byte[] id = new byte[in.readLength("split id", 1)];
            in.readFully(id);
            return new NumberSequenceSplit(new String(id, java.nio.charset.StandardCharsets.UTF_8), in.readLong(), in.readLong());
        }

        static void checkVersion(int version) throws IOException {
            if (version != 1) {
                throw new IOException("Unknown number-sequence split version " + version + " (this version reads 1)");
            }
        }
    }
}
