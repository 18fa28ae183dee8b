package dev.runnel.api.common.typeutils.base;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.assertCorrupt;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.hugeLengthPrefix;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.core.memory.CorruptDataException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class CollectionSerializersTest {

    private static final ListSerializer<String> STRINGS = new ListSerializer<>(StringSerializer.INSTANCE);
    private static final ListSerializer<Long> LONGS = new ListSerializer<>(LongSerializer.INSTANCE);
    private static final MapSerializer<String, Long> MAP =
            new MapSerializer<>(StringSerializer.INSTANCE, LongSerializer.INSTANCE);

    @Test
    void lists() throws Exception {
        List<Long> large = IntStream.range(0, 100_000).mapToObj(i -> (long) i * 31).collect(Collectors.toList());
        SerializerTestHarness.of(LONGS).verify(List.of(), List.of(1L), List.of(Long.MIN_VALUE, 0L, Long.MAX_VALUE), large);
        SerializerTestHarness.of(STRINGS).verify(List.of(), List.of(""), List.of("a", "\uD83D\uDE00", "c"),
                new LinkedList<>(List.of("not", "random", "access")));
        assertThat(deserialize(STRINGS, serialize(STRINGS, List.of("a")))).isInstanceOf(ArrayList.class);
    }

    @Test
    void listCopiesAreDeep() {
        ListSerializer<byte[]> arrays = new ListSerializer<>(BytePrimitiveArraySerializer.INSTANCE);
        List<byte[]> original = new ArrayList<>(List.of(new byte[] {1}, new byte[] {2}));
        List<byte[]> copy = arrays.copy(original);
        assertThat(copy).isNotSameAs(original).hasSize(2);
        assertThat(copy.get(0)).isNotSameAs(original.get(0)).containsExactly(1);
        original.get(1)[0] = 9;
        assertThat(copy.get(1)).containsExactly(2);
        // Immutable elements are shared, the list is not.
        List<String> strings = new ArrayList<>(List.of("x"));
        List<String> stringsCopy = STRINGS.copy(strings);
        strings.add("y");
        assertThat(stringsCopy).containsExactly("x");
    }

    @Test
    void nullListElementNamesTheIndex() {
        List<String> withNull = Arrays.asList("a", "b", null);
        assertThatThrownBy(() -> serialize(STRINGS, withNull))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("list element 2 is null");
    }

    @Test
    void maps() throws Exception {
        Map<String, Long> large = new HashMap<>();
        for (int i = 0; i < 20_000; i++) {
            large.put("key-" + i, (long) i);
        }
        Map<String, Long> withNullValue = new HashMap<>();
        withNullValue.put("absent", null);
        withNullValue.put("present", 7L);
        SerializerTestHarness.of(MAP).verify(Map.of(), Map.of("a", 1L), withNullValue, new TreeMap<>(Map.of("z", 1L, "y", 2L)), large);
        assertThat(deserialize(MAP, serialize(MAP, withNullValue))).isInstanceOf(HashMap.class).containsEntry("absent", null);
    }

    @Test
    void mapCopiesAreDeep() {
        MapSerializer<String, List<Long>> nested = new MapSerializer<>(StringSerializer.INSTANCE, LONGS);
        Map<String, List<Long>> original = new HashMap<>();
        original.put("k", new ArrayList<>(List.of(1L)));
        Map<String, List<Long>> copy = nested.copy(original);
        original.get("k").add(2L);
        assertThat(copy.get("k")).containsExactly(1L);
        assertThat(copy).isNotSameAs(original);
    }

    @Test
    void nullMapKeyIsRejected() {
        Map<String, Long> withNullKey = new HashMap<>();
        withNullKey.put(null, 1L);
        assertThatThrownBy(() -> serialize(MAP, withNullKey))
                .isInstanceOf(NullPointerException.class)
                .hasMessageContaining("null key");
    }

    @Test
    void corruptValueMarkerIsNamed() throws Exception {
        byte[] bytes = serialize(MAP, Map.of("a", 1L));
        // count, key header, 'a', marker
        bytes[3] = 5;
        assertThatThrownBy(() -> deserialize(MAP, bytes))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("position 3")
                .hasMessageContaining("marker 5");
    }

    @Test
    void hugeCountsFailFastBeforeAllocating() {
        assertCorrupt(STRINGS, hugeLengthPrefix());
        assertCorrupt(LONGS, hugeLengthPrefix());
        assertCorrupt(MAP, hugeLengthPrefix());
        // 100 longs need 800 bytes; the count alone is rejected against what remains.
        byte[] hundredLongsButEightBytes = new byte[9];
        hundredLongsButEightBytes[0] = 100;
        assertCorrupt(LONGS, hundredLongsButEightBytes);
    }

    @Test
    void equalityFollowsElementSerializers() {
        assertThat(new ListSerializer<>(StringSerializer.INSTANCE)).isEqualTo(STRINGS).hasSameHashCodeAs(STRINGS);
        assertThat(STRINGS).isNotEqualTo(LONGS);
        assertThat(new MapSerializer<>(StringSerializer.INSTANCE, LongSerializer.INSTANCE)).isEqualTo(MAP).hasSameHashCodeAs(MAP);
        assertThat(MAP).isNotEqualTo(new MapSerializer<>(LongSerializer.INSTANCE, StringSerializer.INSTANCE));
    }
}
