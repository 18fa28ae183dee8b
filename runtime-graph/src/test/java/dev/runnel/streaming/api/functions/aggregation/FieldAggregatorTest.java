package dev.runnel.streaming.api.functions.aggregation;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import org.junit.jupiter.api.Test;

/** {@code sum} picks the numeric type once, from the field's declared type, and refuses a non-numeric field up front. */
class FieldAggregatorTest {

    record Reading(String sensor, double value) {}

    /** A POJO with a primitive, a boxed and a mutable field. */
    public static class Meter {
        public String id;
        public long total;
        public Integer peak;
        public java.util.List<String> notes = new java.util.ArrayList<>();

        public Meter() {}

        Meter(String id, long total, Integer peak) {
            this.id = id;
            this.total = total;
            this.peak = peak;
        }
    }

    @Test
    void sumsEachNumericTypeOfTuplesRecordsAndBasicValues() throws Exception {
        FieldAggregator<Tuple2<String, Integer>> ints = FieldAggregator.byPosition(
                FieldAggregator.Kind.SUM, Types.TUPLE(Types.STRING, Types.INT), 1);
        assertThat(ints.reduce(Tuple2.of("a", 2), Tuple2.of("b", 3))).isEqualTo(Tuple2.of("a", 5));

        FieldAggregator<Tuple2<String, Long>> longs = FieldAggregator.byName(
                FieldAggregator.Kind.SUM, Types.TUPLE(Types.STRING, Types.LONG), "f1");
        assertThat(longs.reduce(Tuple2.of("a", Long.MAX_VALUE - 1), Tuple2.of("a", 1L)).f1).isEqualTo(Long.MAX_VALUE);

        FieldAggregator<Reading> records = FieldAggregator.byName(
                FieldAggregator.Kind.SUM, TypeInformation.of(Reading.class), "value");
        assertThat(records.reduce(new Reading("s", 1.5), new Reading("t", 2.25))).isEqualTo(new Reading("s", 3.75));

        FieldAggregator<Short> shorts = FieldAggregator.byPosition(FieldAggregator.Kind.SUM, Types.SHORT, 0);
        assertThat(shorts.reduce((short) 30_000, (short) 10_000)).as("wraps as Java's short +").isEqualTo((short) -25_536);
    }

    @Test
    void sumOfANonNumericFieldFailsWhenTheJobIsBuiltNamingTheField() {
        assertThatThrownBy(() -> FieldAggregator.byPosition(
                FieldAggregator.Kind.SUM, Types.TUPLE(Types.STRING, Types.INT), 0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 0 of")
                .hasMessageContaining("java.lang.String")
                .hasMessageContaining("does not support the + operator");
    }

    @Test
    void minAndMaxStillWorkOnComparableNonNumericFields() throws Exception {
        FieldAggregator<Tuple2<String, Integer>> min = FieldAggregator.byPosition(
                FieldAggregator.Kind.MIN, Types.TUPLE(Types.STRING, Types.INT), 0);
        assertThat(min.reduce(Tuple2.of("b", 1), Tuple2.of("a", 2))).isEqualTo(Tuple2.of("a", 1));
    }

    @Test
    void pojoFieldsAggregateByNameIntoACopy() throws Exception {
        TypeInformation<Meter> type = TypeInformation.of(Meter.class);
        Meter first = new Meter("a", 5, 7);
        first.notes.add("first");
        Meter second = new Meter("b", 6, 9);

        Meter sum = FieldAggregator.byName(FieldAggregator.Kind.SUM, type, "total").reduce(first, second);
        assertThat(sum.total).isEqualTo(11L);
        assertThat(sum.id).as("the other fields of the first record").isEqualTo("a");
        assertThat(sum).as("a new record").isNotSameAs(first);
        assertThat(first.total).as("the first record is untouched").isEqualTo(5L);
        sum.notes.add("more");
        assertThat(first.notes).as("deep copy, as in Flink").containsExactly("first");

        assertThat(FieldAggregator.byName(FieldAggregator.Kind.SUM, type, "peak").reduce(first, second).peak).isEqualTo(16);
        assertThat(FieldAggregator.byName(FieldAggregator.Kind.MAX, type, "peak").reduce(first, second).peak).isEqualTo(9);
        assertThat(FieldAggregator.byName(FieldAggregator.Kind.MIN, type, "id").reduce(second, first).id).isEqualTo("a");
        assertThat(FieldAggregator.byName(FieldAggregator.Kind.MAX_BY, type, "total").reduce(first, second)).isSameAs(second);
    }

    @Test
    void pojoAggregationErrorsNameTheFieldAndTheWayOut() {
        TypeInformation<Meter> type = TypeInformation.of(Meter.class);
        assertThatThrownBy(() -> FieldAggregator.byName(FieldAggregator.Kind.SUM, type, "id"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("field 'id' of PojoType<")
                .hasMessageContaining("does not support the + operator");
        assertThatThrownBy(() -> FieldAggregator.byName(FieldAggregator.Kind.SUM, type, "totl"))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has no field 'totl'; its fields are [id, notes, peak, total]");
        assertThatThrownBy(() -> FieldAggregator.byPosition(FieldAggregator.Kind.SUM, type, 3))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("Aggregation by position is not possible on the POJO type")
                .hasMessageContaining("sum(\"id\")");
    }
}
