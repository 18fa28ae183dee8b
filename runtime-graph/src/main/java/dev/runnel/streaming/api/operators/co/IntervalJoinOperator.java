package dev.runnel.streaming.api.operators.co;

import dev.runnel.api.common.state.MapState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.functions.co.ProcessJoinFunction;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The keyed, event-time inner join of two streams over a time interval, with Flink's semantics: it
 * emits exactly the pairs of one key with
 * {@code left.timestamp + lowerBound <= right.timestamp <= left.timestamp + upperBound} (either bound
 * may be exclusive), each as soon as its second element arrives, stamped with the larger timestamp.
 *
 * <p>Each side is buffered in keyed map state, by timestamp. An element is joined against the other
 * side's buffer, added to its own, and a cleanup timer removes it once the watermark shows that no
 * element it could join with can still arrive. Elements behind the watermark are late: they are not
 * joined, and go to that side's late-data output if one is set. Elements need timestamps.
 *
 * @param <K> the key type
 * @param <T1> the left element type
 * @param <T2> the right element type
 * @param <OUT> the output type
 */
public class IntervalJoinOperator<K, T1, T2, OUT> extends AbstractUdfStreamOperator<OUT, ProcessJoinFunction<T1, T2, OUT>>
        implements TwoInputStreamOperator<T1, T2, OUT>, Triggerable<K, String> {

    private static final long serialVersionUID = 1L;

    private static final String CLEANUP_LEFT = "CLEANUP_LEFT";
    private static final String CLEANUP_RIGHT = "CLEANUP_RIGHT";

    /** The bounds, both inclusive (exclusive bounds are moved in by one millisecond). */
    private final long lowerBound;
    private final long upperBound;
    private final OutputTag<T1> leftLateDataOutputTag;
    private final OutputTag<T2> rightLateDataOutputTag;
    private final TypeSerializer<T1> leftTypeSerializer;
    private final TypeSerializer<T2> rightTypeSerializer;

    private transient MapState<Long, List<T1>> leftBuffer;
    private transient MapState<Long, List<T2>> rightBuffer;
    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;
    private transient InternalTimerService<String> cleanupTimers;
    private transient Pairing<T1, T2> joinLeft;
    private transient Pairing<T2, T1> joinRight;

    public IntervalJoinOperator(long lowerBound, long upperBound, boolean lowerBoundInclusive, boolean upperBoundInclusive,
            OutputTag<T1> leftLateDataOutputTag, OutputTag<T2> rightLateDataOutputTag,
            TypeSerializer<T1> leftTypeSerializer, TypeSerializer<T2> rightTypeSerializer,
            ProcessJoinFunction<T1, T2, OUT> function) {
        super(function);
        if (lowerBound > upperBound) {
            throw new IllegalArgumentException("An interval join needs lowerBound <= upperBound, got lower bound "
                    + lowerBound + " ms and upper bound " + upperBound + " ms");
        }
        this.lowerBound = lowerBoundInclusive ? lowerBound : lowerBound + 1;
        this.upperBound = upperBoundInclusive ? upperBound : upperBound - 1;
        this.leftLateDataOutputTag = leftLateDataOutputTag;
        this.rightLateDataOutputTag = rightLateDataOutputTag;
        this.leftTypeSerializer = Objects.requireNonNull(leftTypeSerializer, "leftTypeSerializer");
        this.rightTypeSerializer = Objects.requireNonNull(rightTypeSerializer, "rightTypeSerializer");
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        context = new ContextImpl();
        cleanupTimers = getInternalTimerService("interval-join-cleanup", StringSerializer.INSTANCE, this);
        joinLeft = (left, leftTimestamp, right, rightTimestamp) -> collect(left, right, leftTimestamp, rightTimestamp);
        joinRight = (right, rightTimestamp, left, leftTimestamp) -> collect(left, right, leftTimestamp, rightTimestamp);
        leftBuffer = getRuntimeContext().getMapState(new MapStateDescriptor<>("LEFT_BUFFER", LongSerializer.INSTANCE,
                new ListSerializer<>(leftTypeSerializer)));
        rightBuffer = getRuntimeContext().getMapState(new MapStateDescriptor<>("RIGHT_BUFFER", LongSerializer.INSTANCE,
                new ListSerializer<>(rightTypeSerializer)));
    }

    @Override
    public void processElement1(StreamRecord<T1> record) throws Exception {
        processElement(record, leftBuffer, rightBuffer, lowerBound, upperBound, leftLateDataOutputTag, CLEANUP_LEFT, joinLeft);
    }

    @Override
    public void processElement2(StreamRecord<T2> record) throws Exception {
        processElement(record, rightBuffer, leftBuffer, -upperBound, -lowerBound, rightLateDataOutputTag, CLEANUP_RIGHT,
                joinRight);
    }

    /**
     * Joins an element of one side with the other side's buffered elements whose timestamps lie in
     * {@code [timestamp + relativeLowerBound, timestamp + relativeUpperBound]}, then buffers it until
     * the watermark passes the last timestamp it could still join.
     */
    private <OUR, OTHER> void processElement(StreamRecord<OUR> record, MapState<Long, List<OUR>> ourBuffer,
            MapState<Long, List<OTHER>> otherBuffer, long relativeLowerBound, long relativeUpperBound, OutputTag<OUR> lateTag,
            String cleanupNamespace, Pairing<OUR, OTHER> pairing) throws Exception {
        if (isLate(record, lateTag)) {
            return;
        }
        long timestamp = record.getTimestamp();
        addToBuffer(ourBuffer, record.getValue(), timestamp);
        for (Map.Entry<Long, List<OTHER>> bucket : otherBuffer.entries()) {
            long otherTimestamp = bucket.getKey();
            if (otherTimestamp >= timestamp + relativeLowerBound && otherTimestamp <= timestamp + relativeUpperBound) {
                for (OTHER other : bucket.getValue()) {
                    pairing.join(record.getValue(), timestamp, other, otherTimestamp);
                }
            }
        }
        cleanupTimers.registerEventTimeTimer(cleanupNamespace,
                relativeUpperBound > 0 ? timestamp + relativeUpperBound : timestamp);
    }

    /** Hands an element of one side and one of the other to the join function, left first. */
    @FunctionalInterface
    private interface Pairing<OUR, OTHER> {
        void join(OUR ours, long ourTimestamp, OTHER other, long otherTimestamp) throws Exception;
    }

    /** Fails for a record without timestamp; for one behind the watermark, sends it to {@code lateTag} (if set). */
    private <T> boolean isLate(StreamRecord<T> record, OutputTag<T> lateTag) {
        if (!record.hasTimestamp()) {
            throw new IllegalStateException("An interval join needs event timestamps, but record "
                    + record.getValue() + " has none. Assign timestamps with assignTimestampsAndWatermarks(...).");
        }
        long watermark = cleanupTimers.currentWatermark();
        boolean late = watermark != Long.MIN_VALUE && record.getTimestamp() < watermark;
        if (late && lateTag != null) {
            output.collect(lateTag, new StreamRecord<>(record.getValue(), record.getTimestamp()));
        }
        return late;
    }

    private static <T> void addToBuffer(MapState<Long, List<T>> buffer, T value, long timestamp) throws Exception {
        List<T> bucket = buffer.get(timestamp);
        if (bucket == null) {
            bucket = new ArrayList<>(2);
        }
        bucket.add(value);
        buffer.put(timestamp, bucket);
    }

    private void collect(T1 left, T2 right, long leftTimestamp, long rightTimestamp) throws Exception {
        long timestamp = Math.max(leftTimestamp, rightTimestamp);
        collector.setAbsoluteTimestamp(timestamp);
        context.leftTimestamp = leftTimestamp;
        context.rightTimestamp = rightTimestamp;
        context.timestamp = timestamp;
        userFunction.processElement(left, right, context, collector);
    }

    /** A cleanup timer: the elements of one timestamp of one side can join nothing that may still arrive. */
    @Override
    public void onEventTime(InternalTimer<K, String> timer) throws Exception {
        long time = timer.getTimestamp();
        if (CLEANUP_LEFT.equals(timer.getNamespace())) {
            leftBuffer.remove(upperBound > 0 ? time - upperBound : time);
        } else {
            rightBuffer.remove(lowerBound < 0 ? time + lowerBound : time);
        }
    }

    @Override
    public void onProcessingTime(InternalTimer<K, String> timer) {}

    /** What the join function sees of the pair it processes. */
    private final class ContextImpl extends ProcessJoinFunction<T1, T2, OUT>.Context {
        private long leftTimestamp;
        private long rightTimestamp;
        private long timestamp;

        ContextImpl() {
            userFunction.super();
        }

        @Override
        public long getLeftTimestamp() {
            return leftTimestamp;
        }

        @Override
        public long getRightTimestamp() {
            return rightTimestamp;
        }

        @Override
        public long getTimestamp() {
            return timestamp;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            Objects.requireNonNull(outputTag, "outputTag");
            output.collect(outputTag, new StreamRecord<>(value, timestamp));
        }
    }
}
