package dev.runnel.streaming.util.keys;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.InvalidProgramException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.tuple.Tuple1;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.util.InstantiationUtil;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.Test;

/** Flink's field keys: by tuple position and by field expression, on tuples and (nested) POJOs. */
class FieldKeysTest {

    /** A POJO by Flink's rules. */
    public static class Address {
        public String city;

        public Address() {}
    }

    /** A POJO with a nested one and a private field behind a getter and setter. */
    public static class Visit {
        public String user;
        public Address address;
        private int pages;

        public Visit() {}

        Visit(String user, String city, int pages) {
            this.user = user;
            this.address = new Address();
            this.address.city = city;
            this.pages = pages;
        }

        public int getPages() {
            return pages;
        }

        public void setPages(int pages) {
            this.pages = pages;
        }
    }

    static final Map<String, Integer> SUMS = new ConcurrentHashMap<>();

    @Test
    void keysAreTuplesOfTheSelectedFields() throws Exception {
        TypeInformation<Tuple3<String, Integer, Long>> tuple = Types.TUPLE(Types.STRING, Types.INT, Types.LONG);
        KeySelectorUtil.Keyed<Tuple3<String, Integer, Long>> byPositions = KeySelectorUtil.forPositions(tuple, 2, 0);
        assertThat(byPositions.selector().getKey(Tuple3.of("a", 1, 7L))).isEqualTo(Tuple2.of(7L, "a"));
        assertThat(byPositions.keyType()).isEqualTo(Types.TUPLE(Types.LONG, Types.STRING));
        assertThat(KeySelectorUtil.forExpressions(tuple, "f1").selector().getKey(Tuple3.of("a", 5, 7L)))
                .isEqualTo(Tuple1.of(5));

        TypeInformation<Visit> pojo = TypeExtractor.createTypeInfo(Visit.class);
        KeySelectorUtil.Keyed<Visit> nested = KeySelectorUtil.forExpressions(pojo, "address.city", "pages");
        Tuple key = nested.selector().getKey(new Visit("ann", "Oslo", 3));
        assertThat(key).isEqualTo(Tuple2.of("Oslo", 3));
        // the selector travels with the job graph
        KeySelectorUtil.Keyed<Visit> copy = KeySelectorUtil.forExpressions(pojo, "address.city");
        byte[] bytes = InstantiationUtil.serialize(copy.selector(), "key selector");
        @SuppressWarnings("unchecked")
        dev.runnel.api.java.functions.KeySelector<Visit, Tuple> restored = InstantiationUtil.deserialize(bytes,
                getClass().getClassLoader(), "key selector");
        assertThat(restored.getKey(new Visit("bo", "Rome", 1))).isEqualTo(Tuple1.of("Rome"));
    }

    @Test
    void badExpressionsNameWhatIsWrong() {
        TypeInformation<Visit> pojo = TypeExtractor.createTypeInfo(Visit.class);
        assertThatThrownBy(() -> KeySelectorUtil.forExpressions(pojo, "address.street"))
                .isInstanceOf(InvalidProgramException.class).hasMessageContaining("no field 'street'")
                .hasMessageContaining("city");
        assertThatThrownBy(() -> KeySelectorUtil.forPositions(pojo, 0))
                .isInstanceOf(InvalidProgramException.class).hasMessageContaining("tuple");
        assertThatThrownBy(() -> KeySelectorUtil.forPositions(Types.TUPLE(Types.STRING, Types.INT), 2))
                .hasMessageContaining("fields 0 to 1");
        assertThatThrownBy(() -> KeySelectorUtil.forExpressions(Types.STRING, "length"))
                .hasMessageContaining("neither a tuple nor a POJO");
    }

    @Test
    @SuppressWarnings("deprecation")
    void aJobKeyedByAFieldExpressionCountsPerField() throws Exception {
        SUMS.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        env.setParallelism(2);
        env.fromData(new Visit("ann", "Oslo", 1), new Visit("bo", "Rome", 2), new Visit("cy", "Oslo", 4))
                .keyBy("address.city")
                .reduce((a, b) -> new Visit(a.user, a.address.city, a.getPages() + b.getPages()))
                .addSink(new SinkFunction<Visit>() {
                    @Override
                    public void invoke(Visit value, Context context) {
                        SUMS.merge(value.address.city, value.getPages(), Math::max);
                    }
                });
        env.fromData(Tuple2.of("x", 1), Tuple2.of("y", 2), Tuple2.of("x", 3))
                .keyBy(0)
                .sum(1)
                .addSink(new SinkFunction<Tuple2<String, Integer>>() {
                    @Override
                    public void invoke(Tuple2<String, Integer> value, Context context) {
                        SUMS.merge("t-" + value.f0, value.f1, Math::max);
                    }
                });
        env.execute("field keys");
        assertThat(SUMS).containsEntry("Oslo", 5).containsEntry("Rome", 2).containsEntry("t-x", 4)
                .containsEntry("t-y", 2);
    }
}
