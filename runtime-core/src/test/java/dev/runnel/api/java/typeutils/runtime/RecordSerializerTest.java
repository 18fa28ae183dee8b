package dev.runnel.api.java.typeutils.runtime;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class RecordSerializerTest {

    record Trade(String symbol, long quantity, String venue) {}

    record Empty() {}

    record Positive(int value) {
        Positive {
            if (value <= 0) {
                throw new IllegalArgumentException("value must be positive: " + value);
            }
        }
    }

    record Basket(String owner, List<String> items) {}

    private static final RecordSerializer<Trade> TRADES = new RecordSerializer<>(Trade.class,
            new TypeSerializer<?>[] {StringSerializer.INSTANCE, LongSerializer.INSTANCE, StringSerializer.INSTANCE});

    @Test
    void roundTripsIncludingNullComponents() throws Exception {
        SerializerTestHarness.of(TRADES).verify(new Trade("ACME", 100, "XNYS"), new Trade("", Long.MIN_VALUE, null),
                new Trade(null, 0, null), new Trade("\uD83D\uDE00", 1, "x".repeat(50_000)));
        // Presence byte, "A" (header + 1 byte), 8 bytes of long, presence byte 0 for the null venue.
        assertThat(serialize(TRADES, new Trade("A", 1, null))).hasSize(1 + 2 + 8 + 1);
    }

    @Test
    void immutableComponentsMakeCopyFree() {
        Trade t = new Trade("a", 1, "b");
        assertThat(TRADES.isImmutableType()).isTrue();
        assertThat(TRADES.copy(t)).isSameAs(t);
    }

    @Test
    void mutableComponentsAreCopiedDeeply() throws Exception {
        RecordSerializer<Basket> baskets = new RecordSerializer<>(Basket.class,
                new TypeSerializer<?>[] {StringSerializer.INSTANCE, new ListSerializer<>(StringSerializer.INSTANCE)});
        assertThat(baskets.isImmutableType()).isFalse();
        Basket original = new Basket("me", new ArrayList<>(List.of("apple")));
        Basket copy = baskets.copy(original);
        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        original.items().add("pear");
        assertThat(copy.items()).containsExactly("apple");
        SerializerTestHarness.of(baskets).verify(original, new Basket(null, List.of()), new Basket("x", null));
    }

    @Test
    void emptyRecordsTakeOneByte() throws Exception {
        RecordSerializer<Empty> empty = new RecordSerializer<>(Empty.class, new TypeSerializer<?>[0]);
        SerializerTestHarness.of(empty).verify(new Empty());
        assertThat(serialize(empty, new Empty())).containsExactly(0);
        assertThat(empty.getLength()).isEqualTo(1);
    }

    @Test
    void primitiveOnlyRecordsHaveAFixedLength() throws Exception {
        RecordSerializer<Positive> positive = new RecordSerializer<>(Positive.class, new TypeSerializer<?>[] {IntSerializer.INSTANCE});
        assertThat(positive.getLength()).isEqualTo(4);
        SerializerTestHarness.of(positive).verify(new Positive(1), new Positive(Integer.MAX_VALUE));
    }

    @Test
    void canonicalConstructorValidationRejectsBadData() {
        RecordSerializer<Positive> positive = new RecordSerializer<>(Positive.class, new TypeSerializer<?>[] {IntSerializer.INSTANCE});
        assertThatThrownBy(() -> positive.deserialize(new DataInputDeserializer(new byte[] {0, 0, 0, 0})))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Positive at position 0")
                .hasMessageContaining("value must be positive: 0");
        // No blank instance exists for a record whose constructor rejects defaults.
        assertThat(positive.createInstance()).isNull();
        assertThat(TRADES.createInstance()).isEqualTo(new Trade(null, 0, null));
    }

    @Test
    void badPresenceByteIsCorrupt() {
        byte[] bytes = {2};
        assertThatThrownBy(() -> TRADES.deserialize(new DataInputDeserializer(bytes)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("presence byte of component 0 at position 0");
    }

    @Test
    void recordsWithArrayComponents() throws Exception {
        record Blob(byte[] data) {}
        RecordSerializer<Blob> blobs = new RecordSerializer<>(Blob.class, new TypeSerializer<?>[] {BytePrimitiveArraySerializer.INSTANCE});
        Blob original = new Blob(new byte[] {1, 2});
        Blob copy = blobs.copy(original);
        assertThat(copy.data()).isNotSameAs(original.data()).containsExactly(1, 2);
        Blob read = blobs.deserialize(new DataInputDeserializer(serialize(blobs, original)));
        assertThat(read.data()).containsExactly(1, 2);
    }

    @Test
    void constructionIsValidated() {
        assertThatThrownBy(() -> new RecordSerializer<>(Trade.class, new TypeSerializer<?>[] {StringSerializer.INSTANCE}))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("3 components but 1");
    }
}
