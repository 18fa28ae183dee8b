package dev.runnel.api.java.typeutils.runtime;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.DoubleSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.java.tuple.Tuple0;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class TupleSerializerTest {

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static final TupleSerializer<Tuple2<String, Long>> STRING_LONG = new TupleSerializer<>(
            (Class<Tuple2<String, Long>>) (Class) Tuple2.class,
            new TypeSerializer<?>[] {StringSerializer.INSTANCE, LongSerializer.INSTANCE});

    /** A named tuple type, as Flink users write them. */
    public static class WordCount extends Tuple2<String, Integer> {
        public WordCount() {}

        WordCount(String word, int count) {
            super(word, count);
        }
    }

    @Test
    void roundTrips() throws Exception {
        SerializerTestHarness.of(STRING_LONG).verify(Tuple2.of("a", 1L), Tuple2.of("", Long.MIN_VALUE),
                Tuple2.of("\uD83D\uDE00\uDC00", Long.MAX_VALUE), Tuple2.of("x".repeat(100_000), 0L));
        assertThat(STRING_LONG.getLength()).isEqualTo(-1);
    }

    @Test
    void fixedLengthWhenEveryFieldIsFixed() throws Exception {
        @SuppressWarnings({"unchecked", "rawtypes"})
        TupleSerializer<Tuple3<Integer, Long, Double>> fixed = new TupleSerializer<>((Class) Tuple3.class,
                new TypeSerializer<?>[] {IntSerializer.INSTANCE, LongSerializer.INSTANCE, DoubleSerializer.INSTANCE});
        assertThat(fixed.getLength()).isEqualTo(20);
        SerializerTestHarness.of(fixed).verify(Tuple3.of(1, 2L, -0.0), Tuple3.of(Integer.MIN_VALUE, Long.MAX_VALUE, Double.NaN));
    }

    @Test
    void tuple0TakesOneByte() throws Exception {
        TupleSerializer<Tuple0> none = new TupleSerializer<>(Tuple0.class, new TypeSerializer<?>[0]);
        SerializerTestHarness.of(none).verify(Tuple0.INSTANCE, new Tuple0());
        assertThat(serialize(none, Tuple0.INSTANCE)).containsExactly(0);
        assertThatThrownBy(() -> none.deserialize(new DataInputDeserializer(new byte[] {7})))
                .isInstanceOf(CorruptDataException.class).hasMessageContaining("position 0");
    }

    @Test
    void subclassesAreCreatedThroughTheirConstructor() throws Exception {
        TupleSerializer<WordCount> serializer = new TupleSerializer<>(WordCount.class,
                new TypeSerializer<?>[] {StringSerializer.INSTANCE, IntSerializer.INSTANCE});
        SerializerTestHarness.of(serializer).verify(new WordCount("hello", 3), new WordCount("", 0));
        assertThat(serializer.deserialize(new DataInputDeserializer(serialize(serializer, new WordCount("w", 1)))))
                .isInstanceOf(WordCount.class);
        assertThat(serializer.copy(new WordCount("c", 2))).isInstanceOf(WordCount.class);
        assertThat(serializer.createInstance()).isInstanceOf(WordCount.class);
    }

    @Test
    void copiesAreDeepForMutableFields() {
        @SuppressWarnings({"unchecked", "rawtypes"})
        TupleSerializer<Tuple2<byte[], List<String>>> serializer = new TupleSerializer<>((Class) Tuple2.class,
                new TypeSerializer<?>[] {BytePrimitiveArraySerializer.INSTANCE, new ListSerializer<>(StringSerializer.INSTANCE)});
        Tuple2<byte[], List<String>> original = Tuple2.of(new byte[] {1, 2}, new ArrayList<>(List.of("a")));
        Tuple2<byte[], List<String>> copy = serializer.copy(original);
        assertThat(copy).isNotSameAs(original);
        assertThat(copy.f0).isNotSameAs(original.f0).containsExactly(1, 2);
        assertThat(copy.f1).isNotSameAs(original.f1).containsExactly("a");
        original.f0[0] = 9;
        original.f1.add("b");
        assertThat(copy.f0).containsExactly(1, 2);
        assertThat(copy.f1).containsExactly("a");

        // Immutable fields are shared.
        Tuple2<String, Long> t = Tuple2.of(new String("s"), 1L);
        assertThat(STRING_LONG.copy(t).f0).isSameAs(t.f0);

        // copy with reuse writes into the given tuple.
        Tuple2<byte[], List<String>> reuse = serializer.createInstance();
        assertThat(serializer.copy(copy, reuse)).isSameAs(reuse);
        assertThat(reuse.f0).containsExactly(1, 2);
    }

    @Test
    void tuplesOfArraysRoundTrip() throws Exception {
        @SuppressWarnings({"unchecked", "rawtypes"})
        TupleSerializer<Tuple2<byte[], String>> serializer = new TupleSerializer<>((Class) Tuple2.class,
                new TypeSerializer<?>[] {BytePrimitiveArraySerializer.INSTANCE, StringSerializer.INSTANCE});
        SerializerTestHarness.of(serializer)
                .withEquality((a, b) -> Arrays.equals((byte[]) ((Tuple2<?, ?>) a).f0, (byte[]) ((Tuple2<?, ?>) b).f0)
                        && ((Tuple2<?, ?>) a).f1.equals(((Tuple2<?, ?>) b).f1))
                .verify(Tuple2.of(new byte[0], ""), Tuple2.of(new byte[] {1, 2, 3}, "abc"));
    }

    @Test
    void deserializeWithReuseFillsTheGivenTuple() throws Exception {
        Tuple2<String, Long> reuse = STRING_LONG.createInstance();
        Tuple2<String, Long> read = STRING_LONG.deserialize(reuse, new DataInputDeserializer(serialize(STRING_LONG, Tuple2.of("r", 5L))));
        assertThat(read).isSameAs(reuse).isEqualTo(Tuple2.of("r", 5L));
    }

    @Test
    void nullFieldsAreRejectedNamingTheField() {
        assertThatThrownBy(() -> serialize(STRING_LONG, Tuple2.of("a", null)))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("field f1 (index 1)")
                .hasMessageContaining("Tuple2");
        assertThatThrownBy(() -> serialize(STRING_LONG, Tuple2.of(null, 1L)))
                .hasMessageContaining("field f0 (index 0)");
    }

    @Test
    void constructionIsValidated() {
        assertThatThrownBy(() -> new TupleSerializer<>(Tuple2.class, new TypeSerializer<?>[] {StringSerializer.INSTANCE}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("has 2 fields but 1 field serializers");
        assertThat(STRING_LONG).isEqualTo(new TupleSerializer<>(Tuple2.class,
                new TypeSerializer<?>[] {StringSerializer.INSTANCE, LongSerializer.INSTANCE}));
        assertThat(STRING_LONG).isNotEqualTo(new TupleSerializer<>(Tuple2.class,
                new TypeSerializer<?>[] {LongSerializer.INSTANCE, StringSerializer.INSTANCE}));
    }
}
