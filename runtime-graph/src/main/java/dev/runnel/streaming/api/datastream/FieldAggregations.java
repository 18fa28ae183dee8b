package dev.runnel.streaming.api.datastream;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator;
import dev.runnel.streaming.api.functions.aggregation.FieldAggregator.Kind;
import java.util.function.Function;

/**
 * Flink's field aggregations ({@code sum}, {@code min}, {@code max}, {@code minBy}, {@code maxBy}, by
 * field position or name), defined once for every stream that has them: rolling per key on a
 * {@link KeyedStream}, per window on a {@link WindowedStream} or {@link AllWindowedStream}.
 *
 * <p>{@code sum}, {@code min} and {@code max} emit the first record of the key (or window) with the
 * aggregated field replaced; {@code minBy} and {@code maxBy} emit the record holding the extreme value
 * (the first of equal ones, unless {@code first} is false). Positions address tuple fields, record
 * components or, for basic types, the value itself (position 0); names address POJO fields, record
 * components or tuple fields {@code f0, f1, ...}. A POJO field is replaced in a copy made by a
 * serializer of the job's {@link SerializerConfig}.
 *
 * @param <T> the record type
 */
interface FieldAggregations<T> {

    /**
     * The hook behind the aggregations (not part of Flink's API): builds the aggregator for this
     * stream's record type and applies it as a reduce named after {@code name}.
     */
    SingleOutputStreamOperator<T> aggregateField(Function<TypeInformation<T>, FieldAggregator<T>> aggregator,
            String name);

    /** The environment of the job this stream belongs to; its serializer config copies POJOs. */
    StreamExecutionEnvironment getExecutionEnvironment();

    private SerializerConfig serializerConfig() {
        return getExecutionEnvironment().getConfig().getSerializerConfig();
    }

    default SingleOutputStreamOperator<T> sum(int positionToSum) {
        return aggregateField(type -> FieldAggregator.byPosition(Kind.SUM, type, positionToSum), "Sum");
    }

    default SingleOutputStreamOperator<T> sum(String field) {
        return aggregateField(type -> FieldAggregator.byName(Kind.SUM, type, field, true, serializerConfig()), "Sum");
    }

    default SingleOutputStreamOperator<T> min(int positionToMin) {
        return aggregateField(type -> FieldAggregator.byPosition(Kind.MIN, type, positionToMin), "Min");
    }

    default SingleOutputStreamOperator<T> min(String field) {
        return aggregateField(type -> FieldAggregator.byName(Kind.MIN, type, field, true, serializerConfig()), "Min");
    }

    default SingleOutputStreamOperator<T> max(int positionToMax) {
        return aggregateField(type -> FieldAggregator.byPosition(Kind.MAX, type, positionToMax), "Max");
    }

    default SingleOutputStreamOperator<T> max(String field) {
        return aggregateField(type -> FieldAggregator.byName(Kind.MAX, type, field, true, serializerConfig()), "Max");
    }

    default SingleOutputStreamOperator<T> minBy(int positionToMinBy) {
        return minBy(positionToMinBy, true);
    }

    default SingleOutputStreamOperator<T> minBy(String field) {
        return minBy(field, true);
    }

    /** @param first on ties, keep the first record (true) or the last */
    default SingleOutputStreamOperator<T> minBy(int positionToMinBy, boolean first) {
        return aggregateField(type -> FieldAggregator.byPosition(Kind.MIN_BY, type, positionToMinBy, first), "MinBy");
    }

    /** @param first on ties, keep the first record (true) or the last */
    default SingleOutputStreamOperator<T> minBy(String field, boolean first) {
        return aggregateField(type -> FieldAggregator.byName(Kind.MIN_BY, type, field, first, serializerConfig()), "MinBy");
    }

    default SingleOutputStreamOperator<T> maxBy(int positionToMaxBy) {
        return maxBy(positionToMaxBy, true);
    }

    default SingleOutputStreamOperator<T> maxBy(String field) {
        return maxBy(field, true);
    }

    /** @param first on ties, keep the first record (true) or the last */
    default SingleOutputStreamOperator<T> maxBy(int positionToMaxBy, boolean first) {
        return aggregateField(type -> FieldAggregator.byPosition(Kind.MAX_BY, type, positionToMaxBy, first), "MaxBy");
    }

    /** @param first on ties, keep the first record (true) or the last */
    default SingleOutputStreamOperator<T> maxBy(String field, boolean first) {
        return aggregateField(type -> FieldAggregator.byName(Kind.MAX_BY, type, field, first, serializerConfig()), "MaxBy");
    }
}
