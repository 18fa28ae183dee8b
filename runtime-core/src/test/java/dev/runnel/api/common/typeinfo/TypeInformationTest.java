package dev.runnel.api.common.typeinfo;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.tuple.Tuple3;
import dev.runnel.api.java.typeutils.GenericTypeInfo;
import dev.runnel.api.java.typeutils.ListTypeInfo;
import dev.runnel.api.java.typeutils.MapTypeInfo;
import dev.runnel.api.java.typeutils.MissingTypeInfo;
import dev.runnel.api.java.typeutils.RecordTypeInfo;
import dev.runnel.api.java.typeutils.TupleTypeInfo;
import dev.runnel.api.java.typeutils.runtime.TupleSerializer;
import dev.runnel.api.java.typeutils.runtime.kryo.KryoSerializer;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class TypeInformationTest {

    record Trade(String symbol, long quantity) {}

    /** Value-based equality: usable as a key. */
    public static final class Sku {
        String code;

        @Override
        public boolean equals(Object o) {
            return o instanceof Sku s && Objects.equals(s.code, code);
        }

        @Override
        public int hashCode() {
            return Objects.hashCode(code);
        }
    }

    /** Identity equality: not usable as a key. */
    public static class Item {
        String sku;
    }

    public static class Order {
        String id;
        ArrayList<Item> items;
    }

    enum Side { BUY, SELL }

    /** A named tuple type. */
    public static class WordCount extends Tuple2<String, Integer> {}

    @Test
    void readableNames() {
        assertThat(Types.STRING).hasToString("String");
        assertThat(Types.INT).hasToString("Integer");
        assertThat(Types.TUPLE(Types.STRING, Types.LONG)).hasToString("Tuple2<String, Long>");
        assertThat(Types.LIST(Types.TUPLE(Types.INT, Types.DOUBLE))).hasToString("List<Tuple2<Integer, Double>>");
        assertThat(Types.MAP(Types.STRING, Types.LONG)).hasToString("Map<String, Long>");
        assertThat(Types.PRIMITIVE_ARRAY(Types.BYTE)).hasToString("byte[]");
        assertThat(Types.GENERIC(Item.class)).hasToString("GenericType<" + Item.class.getName() + ">");
        assertThat(Types.POJO(Trade.class)).hasToString("Trade(symbol: String, quantity: Long)");
        assertThat(Types.TUPLE(WordCount.class)).hasToString("WordCount(Tuple2<String, Integer>)");
    }

    @Test
    void structuralQueries() {
        TupleTypeInfo<Tuple3<String, Long, Double>> tuple = new TupleTypeInfo<>(Types.STRING, Types.LONG, Types.DOUBLE);
        assertThat(tuple.isTupleType()).isTrue();
        assertThat(tuple.isBasicType()).isFalse();
        assertThat(tuple.getArity()).isEqualTo(3);
        assertThat(tuple.<Long>getTypeAt(1)).isEqualTo(Types.LONG);
        assertThat(tuple.getTypeClass()).isEqualTo(Tuple3.class);
        assertThat(Types.STRING.isBasicType()).isTrue();
        assertThat(Types.STRING.getArity()).isEqualTo(1);
        assertThat(Types.LONG.getTypeClass()).isEqualTo(Long.class);
        assertThat(Types.LIST(Types.STRING).getTypeClass()).isEqualTo(List.class);
        assertThat(Types.MAP(Types.STRING, Types.INT).getTypeClass()).isEqualTo(Map.class);
        assertThat(Types.POJO(Trade.class).getArity()).isEqualTo(2);
        assertThatThrownBy(() -> tuple.getTypeAt(3)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void keyTypes() {
        assertThat(Types.STRING.isKeyType()).isTrue();
        assertThat(Types.TUPLE(Types.STRING, Types.INT).isKeyType()).isTrue();
        assertThat(Types.TUPLE(Types.STRING, Types.PRIMITIVE_ARRAY(Types.BYTE)).isKeyType()).isFalse();
        assertThat(Types.PRIMITIVE_ARRAY(Types.BYTE).isKeyType()).isFalse();
        assertThat(Types.POJO(Trade.class).isKeyType()).isTrue();
        assertThat(Types.GENERIC(Sku.class).isKeyType()).isTrue();
        assertThat(Types.GENERIC(Item.class).isKeyType()).isFalse();
        assertThat(Types.GENERIC(Side.class).isKeyType()).as("enum hash codes differ between JVMs").isFalse();
        assertThat(Types.GENERIC(CharSequence.class).isKeyType()).isFalse();
        assertThat(Types.LIST(Types.STRING).isKeyType()).isFalse();
    }

    @Test
    void equalityIsStructural() {
        assertThat(Types.TUPLE(Types.STRING, Types.LONG)).isEqualTo(new TupleTypeInfo<>(Types.STRING, Types.LONG))
                .hasSameHashCodeAs(new TupleTypeInfo<>(Types.STRING, Types.LONG))
                .isNotEqualTo(Types.TUPLE(Types.LONG, Types.STRING));
        assertThat(new ListTypeInfo<>(String.class)).isEqualTo(Types.LIST(Types.STRING));
        assertThat(new MapTypeInfo<>(String.class, Long.class)).isEqualTo(Types.MAP(Types.STRING, Types.LONG));
        assertThat(Types.GENERIC(Item.class)).isEqualTo(new GenericTypeInfo<>(Item.class)).isNotEqualTo(Types.GENERIC(Sku.class));
        assertThat(TupleTypeInfo.getBasicTupleTypeInfo(String.class, Integer.class)).isEqualTo(Types.TUPLE(Types.STRING, Types.INT));
    }

    @Test
    void serializersFollowTheType() throws Exception {
        SerializerConfig config = new SerializerConfig();
        TypeSerializer<Tuple2<String, List<Long>>> serializer =
                Types.<Tuple2<String, List<Long>>>TUPLE(Types.STRING, Types.LIST(Types.LONG)).createSerializer(config);
        assertThat(serializer).isInstanceOf(TupleSerializer.class);
        SerializerTestHarness.of(serializer).verify(Tuple2.of("a", List.of(1L, 2L)), Tuple2.of("", List.of()));

        TypeSerializer<Trade> trades = Types.POJO(Trade.class).createSerializer(config);
        assertThat(deserialize(trades, serialize(trades, new Trade("X", 5)))).isEqualTo(new Trade("X", 5));
        assertThat(Types.MAP(Types.STRING, Types.INT).createSerializer(config))
                .isEqualTo(Types.MAP(Types.STRING, Types.INT).createSerializer(config));
    }

    @Test
    void genericTypesResolveTheirRegistrationsWhenTheSerializerIsCreated() {
        ExecutionConfig env = new ExecutionConfig();
        env.registerKryoType(Order.class);
        assertThatThrownBy(() -> Types.GENERIC(Order.class).createSerializer(env.getSerializerConfig()))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("Order.items (java.util.ArrayList)")
                .hasMessageContaining("env.getConfig().registerKryoType(java.util.ArrayList.class)");
        env.registerKryoType(ArrayList.class);
        env.registerKryoType(Item.class);
        assertThat(Types.GENERIC(Order.class).createSerializer(env.getSerializerConfig())).isInstanceOf(KryoSerializer.class);
    }

    /** Flink 1.20's deprecated overload, as TopSpeedWindowing calls it: {@code type.createSerializer(env.getConfig())}. */
    @Test
    @SuppressWarnings("deprecation")
    void theExecutionConfigOverloadUsesItsSerializerSettings() throws Exception {
        ExecutionConfig env = new ExecutionConfig();
        TypeSerializer<Tuple2<String, Long>> tuples =
                TypeInformation.of(new TypeHint<Tuple2<String, Long>>() {}).createSerializer(env);
        assertThat(deserialize(tuples, serialize(tuples, Tuple2.of("a", 7L)))).isEqualTo(Tuple2.of("a", 7L));
        assertThatThrownBy(() -> Types.GENERIC(Order.class).createSerializer(env))
                .isInstanceOf(InvalidTypesException.class).hasMessageContaining("registerKryoType");
        env.registerKryoType(Order.class);
        env.registerKryoType(ArrayList.class);
        env.registerKryoType(Item.class);
        assertThat(Types.GENERIC(Order.class).createSerializer(env)).isInstanceOf(KryoSerializer.class);
    }

    @Test
    void disabledGenericTypesFailNamingTheTypeAndWhereItIs() {
        SerializerConfig config = new SerializerConfig();
        config.registerKryoType(Sku.class);
        config.disableGenericTypes();
        assertThatThrownBy(() -> Types.GENERIC(Sku.class).createSerializer(config))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("generic types are disabled")
                .hasMessageContaining(Sku.class.getName());
        assertThatThrownBy(() -> Types.TUPLE(Types.STRING, Types.LIST(Types.GENERIC(Sku.class))).createSerializer(config))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("field f1 of Tuple2<String, List<GenericType<")
                .hasMessageContaining("generic types are disabled");
        // Types with dedicated serializers are unaffected.
        assertThat(Types.TUPLE(Types.STRING, Types.POJO(Trade.class)).createSerializer(config)).isNotNull();
    }

    @Test
    void pojoRefusesClassesThatAreNotPojosAndKeepsRecordsAsRecords() {
        assertThatThrownBy(() -> Types.POJO(Item.class))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("POJO type expected, but " + Item.class.getName() + " is not a POJO because its field"
                        + " 'sku'");
        assertThat(Types.POJO(Trade.class)).isInstanceOf(RecordTypeInfo.class);
    }

    @Test
    void everyPrimitiveHasAPrimitiveArrayType() {
        assertThat(Types.PRIMITIVE_ARRAY(Types.BYTE)).isSameAs(PrimitiveArrayTypeInfo.BYTE_PRIMITIVE_ARRAY_TYPE_INFO);
        assertThat(Types.PRIMITIVE_ARRAY(Types.INT)).isSameAs(PrimitiveArrayTypeInfo.INT_PRIMITIVE_ARRAY_TYPE_INFO);
        assertThat(Types.PRIMITIVE_ARRAY(Types.BOOLEAN).getTypeClass()).isEqualTo(boolean[].class);
        assertThatThrownBy(() -> Types.PRIMITIVE_ARRAY(Types.LIST(Types.INT)))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not a primitive element type");
    }

    @Test
    void typeHintsCaptureTheirArgument() {
        TypeHint<Map<String, Tuple2<Long, byte[]>>> hint = new TypeHint<>() {};
        assertThat(hint.getTypeInfo()).isEqualTo(Types.MAP(Types.STRING, Types.TUPLE(Types.LONG, Types.PRIMITIVE_ARRAY(Types.BYTE))));
        assertThat(TypeInformation.of(hint)).isSameAs(hint.getTypeInfo());
        assertThat(hint).isEqualTo(new TypeHint<Map<String, Tuple2<Long, byte[]>>>() {});
    }

    @Test
    void missingTypesExplainThemselvesWhenUsed() {
        MissingTypeInfo missing = new MissingTypeInfo("Map at Job.java:12", new InvalidTypesException("erased"));
        assertThat(missing).hasToString("MissingTypeInfo(Map at Job.java:12)");
        assertThatThrownBy(() -> missing.createSerializer(new SerializerConfig()))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("Map at Job.java:12")
                .hasMessageContaining("erased")
                .hasMessageContaining("returns(");
        assertThatThrownBy(missing::getTypeClass).isInstanceOf(InvalidTypesException.class);
    }

    @Test
    void typeInformationSurvivesJavaSerialization() throws Exception {
        List<TypeInformation<?>> infos = List.of(Types.STRING, Types.PRIMITIVE_ARRAY(Types.BYTE),
                Types.TUPLE(Types.STRING, Types.MAP(Types.INT, Types.LIST(Types.DOUBLE))), Types.POJO(Trade.class),
                Types.GENERIC(HashMap.class), Types.INSTANT, Types.LOCAL_DATE_TIME, Types.ENUM(Side.class),
                Types.PRIMITIVE_ARRAY(Types.LONG), Types.OBJECT_ARRAY(Types.STRING), Types.OBJECT_ARRAY(Types.BIG_DEC));
        for (TypeInformation<?> info : infos) {
            ByteArrayOutputStream bos = new ByteArrayOutputStream();
            try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
                oos.writeObject(info);
            }
            try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
                Object read = ois.readObject();
                assertThat(read).isEqualTo(info);
                if (info instanceof BasicTypeInfo || info instanceof PrimitiveArrayTypeInfo
                        || info instanceof LocalTimeTypeInfo || info instanceof BasicArrayTypeInfo) {
                    assertThat(read).as("singletons stay singletons").isSameAs(info);
                }
            }
        }
    }
}
