package dev.runnel.api.common.typeutils.base.array;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.assertCorrupt;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.hugeLengthPrefix;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.BasicArrayTypeInfo;
import dev.runnel.api.common.typeinfo.PrimitiveArrayTypeInfo;
import dev.runnel.api.common.typeinfo.TypeHint;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.GenericArraySerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.api.java.typeutils.ObjectArrayTypeInfo;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import java.math.BigDecimal;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Arrays of primitives, of basic types and of other known types, each with its own serializer. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ArraySerializersTest {

    @Test
    void primitiveArraysRoundTrip() throws Exception {
        SerializerTestHarness.of(IntPrimitiveArraySerializer.INSTANCE)
                .verify(new int[0], new int[] {1, -1, Integer.MIN_VALUE, Integer.MAX_VALUE}, new int[100_000]);
        SerializerTestHarness.of(LongPrimitiveArraySerializer.INSTANCE).verify(new long[0], new long[] {Long.MIN_VALUE, 0, 7});
        SerializerTestHarness.of(DoublePrimitiveArraySerializer.INSTANCE).verify(new double[] {-0.0, Double.NaN, 1.5});
        SerializerTestHarness.of(FloatPrimitiveArraySerializer.INSTANCE).verify(new float[] {Float.MIN_VALUE, -1f});
        SerializerTestHarness.of(ShortPrimitiveArraySerializer.INSTANCE).verify(new short[] {Short.MIN_VALUE, 3});
        SerializerTestHarness.of(CharPrimitiveArraySerializer.INSTANCE).verify(new char[] {'a', '\uD800', '\uFFFF'});
        SerializerTestHarness.of(BooleanPrimitiveArraySerializer.INSTANCE).verify(new boolean[0], new boolean[] {true, false});
        // A count, then the elements big-endian.
        assertThat(serialize(IntPrimitiveArraySerializer.INSTANCE, new int[] {1, 258})).containsExactly(2, 0, 0, 0, 1, 0, 0, 1, 2);
        assertThat(serialize(BooleanPrimitiveArraySerializer.INSTANCE, new boolean[] {true, false})).containsExactly(2, 1, 0);
    }

    @Test
    void primitiveArraysRejectCorruptBytes() {
        for (TypeSerializer<?> s : List.of(IntPrimitiveArraySerializer.INSTANCE, LongPrimitiveArraySerializer.INSTANCE,
                DoublePrimitiveArraySerializer.INSTANCE, FloatPrimitiveArraySerializer.INSTANCE,
                ShortPrimitiveArraySerializer.INSTANCE, CharPrimitiveArraySerializer.INSTANCE,
                BooleanPrimitiveArraySerializer.INSTANCE)) {
            assertCorrupt(s, hugeLengthPrefix());
        }
        // Two ints claimed, seven bytes present: the count is checked against the element size.
        assertThatThrownBy(() -> deserialize(IntPrimitiveArraySerializer.INSTANCE, new byte[] {2, 0, 0, 0, 1, 0, 0, 1}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("int[] at position 0 claims 2 elements but only 7 bytes remain");
        assertThatThrownBy(() -> deserialize(BooleanPrimitiveArraySerializer.INSTANCE, new byte[] {2, 1, 7}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("boolean[] element at position 2 is the byte 7");
    }

    @Test
    void primitiveArrayCopiesAreIndependent() throws Exception {
        long[] original = {1, 2, 3};
        long[] copy = LongPrimitiveArraySerializer.INSTANCE.copy(original);
        original[0] = 99;
        assertThat(copy).containsExactly(1, 2, 3);
        long[] reuse = new long[3];
        assertThat(LongPrimitiveArraySerializer.INSTANCE.copy(original, reuse)).isSameAs(reuse).containsExactly(99, 2, 3);
        long[] target = new long[3];
        assertThat(LongPrimitiveArraySerializer.INSTANCE.deserialize(target,
                new DataInputDeserializer(serialize(LongPrimitiveArraySerializer.INSTANCE, new long[] {4, 5, 6}))))
                .isSameAs(target).containsExactly(4, 5, 6);
    }

    @Test
    void objectArraysWriteAPresenceBytePerElement() throws Exception {
        GenericArraySerializer<String> strings = new GenericArraySerializer<>(String.class, StringSerializer.INSTANCE);
        SerializerTestHarness.of(strings).verify(new String[0], new String[] {"a", null, ""}, new String[] {null});
        assertThat(serialize(strings, new String[] {"hi", null})).containsExactly(2, 1, 4, 'h', 'i', 0);
        assertThat(deserialize(strings, serialize(strings, new String[] {"x"}))).isExactlyInstanceOf(String[].class);
        assertCorrupt(strings, hugeLengthPrefix());
        assertThatThrownBy(() -> deserialize(strings, new byte[] {1, 5}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("element 0 of a String[] at position 1 has presence byte 5");
    }

    @Test
    void objectArrayCopiesAreDeep() {
        TypeSerializer<int[][]> matrix = TypeInformation.of(int[][].class).createSerializer(new SerializerConfig());
        int[][] original = {{1, 2}, null, {3}};
        int[][] copy = matrix.copy(original);
        original[0][0] = 99;
        assertThat(copy[0]).containsExactly(1, 2);
        assertThat(copy[1]).isNull();
        assertThat(copy).isNotSameAs(original);
    }

    @Test
    void theTypeExtractorPicksFlinksArrayTypes() throws Exception {
        assertThat(TypeInformation.of(int[].class)).isSameAs(PrimitiveArrayTypeInfo.INT_PRIMITIVE_ARRAY_TYPE_INFO)
                .isSameAs(Types.PRIMITIVE_ARRAY(Types.INT)).hasToString("int[]");
        assertThat(TypeInformation.of(double[].class)).isSameAs(Types.PRIMITIVE_ARRAY(Types.DOUBLE));
        assertThat(TypeInformation.of(String[].class)).isSameAs(BasicArrayTypeInfo.STRING_ARRAY_TYPE_INFO)
                .isSameAs(Types.OBJECT_ARRAY(Types.STRING)).hasToString("BasicArrayTypeInfo<String>");
        assertThat(TypeInformation.of(Long[].class)).isSameAs(BasicArrayTypeInfo.LONG_ARRAY_TYPE_INFO);
        assertThat(TypeInformation.of(BigDecimal[].class)).isEqualTo(Types.OBJECT_ARRAY(Types.BIG_DEC))
                .hasToString("ObjectArrayTypeInfo<BigDecimal>");
        assertThat(TypeInformation.of(int[][].class))
                .isEqualTo(ObjectArrayTypeInfo.getInfoFor(int[][].class, Types.PRIMITIVE_ARRAY(Types.INT)))
                .hasToString("ObjectArrayTypeInfo<int[]>");
        TypeInformation<Tuple2<String, Long>[]> tuples = new TypeHint<Tuple2<String, Long>[]>() {}.getTypeInfo();
        assertThat(tuples).isEqualTo(Types.OBJECT_ARRAY(Types.TUPLE(Types.STRING, Types.LONG)))
                .hasToString("ObjectArrayTypeInfo<Tuple2<String, Long>>");
        @SuppressWarnings("unchecked")
        Tuple2<String, Long>[] values = new Tuple2[] {Tuple2.of("a", 1L), null};
        TypeSerializer<Tuple2<String, Long>[]> serializer = tuples.createSerializer(new SerializerConfig());
        assertThat(deserialize(serializer, serialize(serializer, values))).containsExactly(Tuple2.of("a", 1L), null);
        assertThat(Types.PRIMITIVE_ARRAY(Types.INT).isKeyType()).isFalse();
        assertThat(Types.OBJECT_ARRAY(Types.STRING).isKeyType()).isFalse();
    }

    @Test
    void primitiveArrayOfANonPrimitiveElementTypeIsRefused() {
        assertThatThrownBy(() -> Types.PRIMITIVE_ARRAY(Types.STRING))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("String is not a primitive element type")
                .hasMessageContaining("Types.OBJECT_ARRAY");
    }
}
