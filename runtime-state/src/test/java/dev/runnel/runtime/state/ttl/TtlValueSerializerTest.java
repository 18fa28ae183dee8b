package dev.runnel.runtime.state.ttl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.snapshot.format.SerializerIdentity;
import java.time.Duration;
import org.junit.jupiter.api.Test;

/** The serialized form of TTL values and the expiry arithmetic both stores rely on. */
class TtlValueSerializerTest {

    @Test
    void honoursTheSerializerContract() throws Exception {
        SerializerTestHarness.of(new TtlValueSerializer<>(StringSerializer.INSTANCE)).verify(
                new TtlValue<>("a", 0L), new TtlValue<>(null, -5L), new TtlValue<>("x".repeat(300), Long.MAX_VALUE),
                new TtlValue<>("", Long.MIN_VALUE));
    }

    @Test
    void theTimestampIsTheFirstEightBytes() throws Exception {
        TtlValueSerializer<Long> serializer = new TtlValueSerializer<>(LongSerializer.INSTANCE);
        DataOutputSerializer out = new DataOutputSerializer(32);
        out.writeByte(99); // the value need not start at 0
        serializer.serialize(new TtlValue<>(7L, 123_456_789_012L), out);
        byte[] bytes = out.getCopyOfBuffer();
        assertThat(TtlValueSerializer.readTimestamp(bytes, 1)).isEqualTo(123_456_789_012L);
        TtlSnapshotFilter filter = new TtlSnapshotFilter(StateTtlConfig.newBuilder(Duration.ofMillis(10)).build(), () -> 0L);
        assertThat(filter.isExpired(bytes, 1, 123_456_789_021L)).isFalse();
        assertThat(filter.isExpired(bytes, 1, 123_456_789_022L)).isTrue();
    }

    @Test
    void aBadPresenceByteIsCorruptData() throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(16);
        out.writeLong(1L);
        out.writeByte(7);
        TtlValueSerializer<Long> serializer = new TtlValueSerializer<>(LongSerializer.INSTANCE);
        assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer())))
                .isInstanceOf(CorruptDataException.class).hasMessageContaining("presence byte 7");
    }

    @Test
    void expiryIsInclusiveAndSaturates() {
        assertThat(TtlSnapshotFilter.isExpired(100, 50, 149)).isFalse();
        assertThat(TtlSnapshotFilter.isExpired(100, 50, 150)).isTrue();
        assertThat(TtlSnapshotFilter.isExpired(Long.MAX_VALUE - 1, 50, Long.MAX_VALUE - 1)).isFalse();
        assertThatThrownBy(() -> new TtlSnapshotFilter(StateTtlConfig.DISABLED, () -> 0L))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void theIdentityNamesTheWrappedSerializer() {
        String identity = SerializerIdentity.of(new TtlValueSerializer<>(LongSerializer.INSTANCE));
        assertThat(identity).contains(TtlValueSerializer.class.getName()).contains(LongSerializer.class.getName());
        assertThat(identity).isNotEqualTo(SerializerIdentity.of(new TtlValueSerializer<>(StringSerializer.INSTANCE)));
    }
}
