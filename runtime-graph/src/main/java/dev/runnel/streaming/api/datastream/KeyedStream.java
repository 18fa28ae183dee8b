package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.typeutils.OutputTypeExtractionException;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.runtime.partitioner.KeyGroupStreamPartitioner;
import dev.runnel.runtime.state.KeyGroupRangeAssignment;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator;
import dev.runnel.streaming.api.functions.co.ProcessJoinFunction;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.api.operators.StreamGroupedReduceOperator;
import dev.runnel.streaming.api.operators.co.IntervalJoinOperator;
import dev.runnel.streaming.api.transformations.PartitionTransformation;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.api.windowing.assigners.GlobalWindows;
import dev.runnel.streaming.api.windowing.assigners.WindowAssigner;
import dev.runnel.streaming.api.windowing.evictors.CountEvictor;
import dev.runnel.streaming.api.windowing.time.Time;
import dev.runnel.streaming.api.windowing.triggers.CountTrigger;
import dev.runnel.streaming.api.windowing.triggers.PurgingTrigger;
import dev.runnel.streaming.api.windowing.windows.GlobalWindow;
import dev.runnel.streaming.api.windowing.windows.Window;
import dev.runnel.util.OutputTag;
import java.time.Duration;
import java.util.Objects;
import java.util.function.Function;

/**
 * A stream partitioned by key ({@code keyBy}): operators applied to it are keyed, so their functions
 * get keyed state and timers for the key of each record. The key must have a stable
 * {@code hashCode()}: it decides the key group and so the subtask (exactly as in Flink).
 *
 * @param <T> the record type
 * @param <KEY> the key type
 */
public class KeyedStream<T, KEY> extends DataStream<T> implements FieldAggregations<T> {

    private final KeySelector<T, KEY> keySelector;
    private final TypeInformation<KEY> keyType;

    KeyedStream(DataStream<T> input, KeySelector<T, KEY> keySelector) {
        this(input, keySelector, keyType(input, keySelector));
    }

    KeyedStream(DataStream<T> input, KeySelector<T, KEY> keySelector, TypeInformation<KEY> keyType) {
        super(input.getExecutionEnvironment(), new PartitionTransformation<>(input.getExecutionEnvironment().nextId(),
                input.getTransformation(),
                new KeyGroupStreamPartitioner<>(keySelector, KeyGroupRangeAssignment.DEFAULT_LOWER_BOUND_MAX_PARALLELISM)));
        this.keySelector = keySelector;
        this.keyType = keyType;
        if (!keyType.isKeyType()) {
            throw new InvalidTypesException("Type " + keyType + " cannot be a key: keys need equals() and hashCode() "
                    + "based on their content (arrays, for example, do not have that).");
        }
    }

    private static <T, KEY> TypeInformation<KEY> keyType(DataStream<T> input, KeySelector<T, KEY> keySelector) {
        try {
            return TypeExtractor.getOutputType(keySelector, KeySelector.class, 1, input.typeOrNull());
        } catch (OutputTypeExtractionException e) {
            throw new InvalidTypesException(e.problemFor("keyBy after '" + input.getTransformation().getName() + "'")
                    + ". Pass the key type explicitly, for example keyBy(selector, Types.STRING).", e);
        }
    }

    public KeySelector<T, KEY> getKeySelector() {
        return keySelector;
    }

    public TypeInformation<KEY> getKeyType() {
        return keyType;
    }

    @Override
    protected void configureKeyed(PhysicalTransformation<?> t) {
        t.setKeyed(keySelector, null, keyType);
    }

    /** Runs {@code function} with keyed state and timers. */
    public <R> SingleOutputStreamOperator<R> process(KeyedProcessFunction<KEY, T, R> function) {
        return transform("KeyedProcess", outputType(function, KeyedProcessFunction.class, 2, keyType, typeOrNull()),
                new KeyedProcessOperator<>(clean(function)));
    }

    public <R> SingleOutputStreamOperator<R> process(KeyedProcessFunction<KEY, T, R> function,
            TypeInformation<R> outputType) {
        return transform("KeyedProcess", outputType, new KeyedProcessOperator<>(clean(function)));
    }

    /** A rolling reduce: emits the reduced value of the key after every record. */
    public SingleOutputStreamOperator<T> reduce(ReduceFunction<T> reducer) {
        return transform("Keyed Reduce", getType(),
                new StreamGroupedReduceOperator<>(clean(reducer), getType().createSerializer(
                        environment.getConfig().getSerializerConfig())));
    }

    @Override
    public SingleOutputStreamOperator<T> aggregateField(Function<TypeInformation<T>, FieldAggregator<T>> aggregator,
            String name) {
        return reduce(aggregator.apply(getType())).name(name);
    }

    /** Groups each key's records into windows. */
    public <W extends Window> WindowedStream<T, KEY, W> window(WindowAssigner<? super T, W> assigner) {
        return new WindowedStream<>(this, assigner);
    }

    /** Tumbling count windows: each key's records in groups of {@code size}, fired and purged when full. */
    public WindowedStream<T, KEY, GlobalWindow> countWindow(long size) {
        return window(GlobalWindows.create()).trigger(PurgingTrigger.of(CountTrigger.of(size)));
    }

    /** Sliding count windows: every {@code slide} records of a key, its last {@code size} records. */
    public WindowedStream<T, KEY, GlobalWindow> countWindow(long size, long slide) {
        return window(GlobalWindows.create()).evictor(CountEvictor.of(size)).trigger(CountTrigger.of(slide));
    }

    // ------------------------------------------------------------------ interval join

    /** Joins this stream's records with those of {@code otherStream} of the same key, over a time interval. */
    public <T1> IntervalJoin<T, T1, KEY> intervalJoin(KeyedStream<T1, KEY> otherStream) {
        return new IntervalJoin<>(this, otherStream);
    }

    /**
     * An interval join before its bounds are set ({@code left.intervalJoin(right)}); only event time is
     * supported.
     */
    public static class IntervalJoin<T1, T2, KEY> {

        private final KeyedStream<T1, KEY> left;
        private final KeyedStream<T2, KEY> right;
        private boolean eventTime = true;

        IntervalJoin(KeyedStream<T1, KEY> left, KeyedStream<T2, KEY> right) {
            this.left = Objects.requireNonNull(left, "left");
            this.right = Objects.requireNonNull(right, "right");
        }

        public IntervalJoin<T1, T2, KEY> inEventTime() {
            eventTime = true;
            return this;
        }

        /** Accepted as in Flink, but {@link #between} then fails: interval joins are event time only. */
        public IntervalJoin<T1, T2, KEY> inProcessingTime() {
            eventTime = false;
            return this;
        }

        /**
         * Joins a left element with the right elements of its key with
         * {@code left.timestamp + lowerBound <= right.timestamp <= left.timestamp + upperBound}; both
         * bounds are inclusive unless made exclusive on the result.
         */
        public IntervalJoined<T1, T2, KEY> between(Duration lowerBound, Duration upperBound) {
            if (!eventTime) {
                throw new UnsupportedTimeCharacteristicException("Time-bounded stream joins are only supported in event time");
            }
            Objects.requireNonNull(lowerBound, "A lower bound needs to be provided for a time-bounded join");
            Objects.requireNonNull(upperBound, "An upper bound needs to be provided for a time-bounded join");
            return new IntervalJoined<>(left, right, lowerBound.toMillis(), upperBound.toMillis(), true, true);
        }

        public IntervalJoined<T1, T2, KEY> between(Time lowerBound, Time upperBound) {
            return between(lowerBound.toDuration(), upperBound.toDuration());
        }
    }

    /** An interval join with its bounds set: make bounds exclusive, route late data, then {@code process}. */
    public static class IntervalJoined<IN1, IN2, KEY> {

        private final KeyedStream<IN1, KEY> left;
        private final KeyedStream<IN2, KEY> right;
        private final long lowerBound;
        private final long upperBound;
        private boolean lowerBoundInclusive;
        private boolean upperBoundInclusive;
        private OutputTag<IN1> leftLateDataOutputTag;
        private OutputTag<IN2> rightLateDataOutputTag;

        public IntervalJoined(KeyedStream<IN1, KEY> left, KeyedStream<IN2, KEY> right, long lowerBound, long upperBound,
                boolean lowerBoundInclusive, boolean upperBoundInclusive) {
            this.left = Objects.requireNonNull(left, "left");
            this.right = Objects.requireNonNull(right, "right");
            this.lowerBound = lowerBound;
            this.upperBound = upperBound;
            this.lowerBoundInclusive = lowerBoundInclusive;
            this.upperBoundInclusive = upperBoundInclusive;
        }

        public IntervalJoined<IN1, IN2, KEY> upperBoundExclusive() {
            this.upperBoundInclusive = false;
            return this;
        }

        public IntervalJoined<IN1, IN2, KEY> lowerBoundExclusive() {
            this.lowerBoundInclusive = false;
            return this;
        }

        /** Sends left elements that arrive behind the watermark to {@code outputTag} instead of dropping them. */
        public IntervalJoined<IN1, IN2, KEY> sideOutputLeftLateData(OutputTag<IN1> outputTag) {
            this.leftLateDataOutputTag = Objects.requireNonNull(outputTag, "outputTag");
            return this;
        }

        /** Sends right elements that arrive behind the watermark to {@code outputTag} instead of dropping them. */
        public IntervalJoined<IN1, IN2, KEY> sideOutputRightLateData(OutputTag<IN2> outputTag) {
            this.rightLateDataOutputTag = Objects.requireNonNull(outputTag, "outputTag");
            return this;
        }

        /** Calls {@code function} for every joined pair. */
        public <OUT> SingleOutputStreamOperator<OUT> process(ProcessJoinFunction<IN1, IN2, OUT> function) {
            return OutputTypes.ofTwoInputFunction(function, ProcessJoinFunction.class, left, right, type -> process(function, type));
        }

        public <OUT> SingleOutputStreamOperator<OUT> process(ProcessJoinFunction<IN1, IN2, OUT> function,
                TypeInformation<OUT> outputType) {
            var config = left.getExecutionEnvironment().getConfig().getSerializerConfig();
            IntervalJoinOperator<KEY, IN1, IN2, OUT> operator = new IntervalJoinOperator<>(lowerBound, upperBound,
                    lowerBoundInclusive, upperBoundInclusive, leftLateDataOutputTag, rightLateDataOutputTag,
                    left.getType().createSerializer(config), right.getType().createSerializer(config), clean(function));
            return left.connect(right).transform("Interval Join", outputType, operator);
        }
    }
}
