package dev.runnel.api.common.typeutils.base;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.EnumTypeInfo;
import dev.runnel.core.memory.CorruptDataException;
import org.junit.jupiter.api.Test;

class EnumSerializerTest {

    enum Side { BUY, SELL }

    /** Constants with bodies are anonymous subclasses of the enum. */
    enum Op {
        ADD { @Override int apply(int a, int b) { return a + b; } },
        SUB { @Override int apply(int a, int b) { return a - b; } };

        abstract int apply(int a, int b);
    }

    @Test
    void constantsAreWrittenAsTheirIndex() throws Exception {
        EnumSerializer<Side> sides = new EnumSerializer<>(Side.class);
        SerializerTestHarness.of(sides).verify(Side.BUY, Side.SELL);
        assertThat(serialize(sides, Side.SELL)).containsExactly(1);
        assertThat(sides.getLength()).isEqualTo(1);
        assertThat(sides.copy(Side.BUY)).isSameAs(Side.BUY);
        assertThat(sides.createInstance()).isSameAs(Side.BUY);
        assertThat(sides).hasToString("EnumSerializer<Side[BUY, SELL]>");
    }

    @Test
    void theConstantNamesArePartOfTheIdentity() {
        assertThat(new EnumSerializer<>(Side.class)).isEqualTo(new EnumSerializer<>(Side.class))
                .hasSameHashCodeAs(new EnumSerializer<>(Side.class));
        assertThat(new EnumSerializer<>(Side.class).getConstantNames()).containsExactly("BUY", "SELL");
    }

    @Test
    void indexesBeyondTheConstantsAreCorrupt() {
        assertThatThrownBy(() -> deserialize(new EnumSerializer<>(Side.class), new byte[] {2}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("enum Side at position 0 has index 2, but it has 2 constants");
    }

    @Test
    void constantsWithBodiesResolveToTheirEnum() throws Exception {
        TypeInformation<?> info = TypeInformation.of(Op.ADD.getClass());
        assertThat(info).isEqualTo(new EnumTypeInfo<>(Op.class)).isEqualTo(Types.ENUM(Op.class));
        @SuppressWarnings("unchecked")
        TypeSerializer<Op> ops = (TypeSerializer<Op>) info.createSerializer(new SerializerConfig());
        assertThat(deserialize(ops, serialize(ops, Op.SUB))).isSameAs(Op.SUB);
    }

    @Test
    void nullAndKeysAreRefusedWithAReason() {
        assertThatThrownBy(() -> serialize(new EnumSerializer<>(Side.class), null))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("EnumSerializer of " + Side.class.getName() + " cannot serialize null");
        assertThat(Types.ENUM(Side.class).isKeyType()).as("enum hash codes differ between JVMs").isFalse();
    }
}
