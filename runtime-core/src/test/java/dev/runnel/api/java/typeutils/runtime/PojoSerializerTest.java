package dev.runnel.api.java.typeutils.runtime;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.deserialize;
import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Field-wise POJO serialization: round trips, exact bytes, copies, subclasses and corrupt input. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class PojoSerializerTest {

    /** The benchmark's shape: a word and a count. */
    public static class WordCount {
        public String word;
        public long n;

        public WordCount() {}

        WordCount(String word, long n) {
            this.word = word;
            this.n = n;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof WordCount w && w.n == n && Objects.equals(w.word, word);
        }

        @Override
        public int hashCode() {
            return Objects.hash(word, n);
        }

        @Override
        public String toString() {
            return word + "=" + n;
        }
    }

    public enum Status { NEW, PAID }

    /** A POJO inside a POJO, private fields with accessors, every kind of field type. */
    public static class Order {
        private long id;
        private WordCount item;
        private List<String> tags;
        private Map<String, Integer> quantities;
        private int[] sizes;
        private String[] notes;
        private Instant placed;
        private Status status;
        private boolean express;
        private double price;
        private char grade;

        public long getId() { return id; }
        public void setId(long id) { this.id = id; }
        public WordCount getItem() { return item; }
        public void setItem(WordCount item) { this.item = item; }
        public List<String> getTags() { return tags; }
        public void setTags(List<String> tags) { this.tags = tags; }
        public Map<String, Integer> getQuantities() { return quantities; }
        public void setQuantities(Map<String, Integer> quantities) { this.quantities = quantities; }
        public int[] getSizes() { return sizes; }
        public void setSizes(int[] sizes) { this.sizes = sizes; }
        public String[] getNotes() { return notes; }
        public void setNotes(String[] notes) { this.notes = notes; }
        public Instant getPlaced() { return placed; }
        public void setPlaced(Instant placed) { this.placed = placed; }
        public Status getStatus() { return status; }
        public void setStatus(Status status) { this.status = status; }
        public boolean isExpress() { return express; }
        public void setExpress(boolean express) { this.express = express; }
        public double getPrice() { return price; }
        public void setPrice(double price) { this.price = price; }
        public char getGrade() { return grade; }
        public void setGrade(char grade) { this.grade = grade; }

        @Override
        public boolean equals(Object o) {
            return o instanceof Order x && x.id == id && Objects.equals(x.item, item) && Objects.equals(x.tags, tags)
                    && Objects.equals(x.quantities, quantities) && Arrays.equals(x.sizes, sizes)
                    && Arrays.equals(x.notes, notes) && Objects.equals(x.placed, placed) && x.status == status
                    && x.express == express && Double.compare(x.price, price) == 0 && x.grade == grade
                    && x.getClass() == getClass();
        }

        @Override
        public int hashCode() {
            return Long.hashCode(id);
        }
    }

    /** A POJO subclass of a POJO, with fields in both. */
    public static class RushOrder extends Order {
        public String courier;
        public int priority;

        @Override
        public boolean equals(Object o) {
            return super.equals(o) && o instanceof RushOrder r && Objects.equals(r.courier, courier) && r.priority == priority;
        }

        @Override
        public int hashCode() {
            return super.hashCode();
        }
    }

    /** A subclass that is not a POJO (no no-argument constructor). */
    public static class FrozenWordCount extends WordCount {
        public final String note;

        public FrozenWordCount(String word, long n, String note) {
            super(word, n);
            this.note = note;
        }
    }

    private static <T> TypeSerializer<T> serializerOf(Class<T> c) {
        return serializerOf(c, new SerializerConfig());
    }

    private static <T> TypeSerializer<T> serializerOf(Class<T> c, SerializerConfig config) {
        TypeInformation<T> info = TypeInformation.of(c);
        assertThat(info).isInstanceOf(PojoTypeInfo.class);
        return info.createSerializer(config);
    }

    private static Order fullOrder() {
        Order o = new Order();
        o.setId(42);
        o.setItem(new WordCount("apple", 3));
        o.setTags(new ArrayList<>(List.of("fresh", "red")));
        o.setQuantities(new HashMap<>(Map.of("crate", 2)));
        o.setSizes(new int[] {1, 2, 3});
        o.setNotes(new String[] {"fragile", null});
        o.setPlaced(Instant.ofEpochSecond(1_700_000_000L, 5));
        o.setStatus(Status.PAID);
        o.setExpress(true);
        o.setPrice(9.5);
        o.setGrade('A');
        return o;
    }

    @Test
    void theBytesAreTheHeaderThenTheFieldsInNameOrder() throws Exception {
        // Fields sorted: n, word. n is a bare long, word a presence byte and a String.
        assertThat(serialize(serializerOf(WordCount.class), new WordCount("hi", 5)))
                .containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 5, 1, 4, 'h', 'i');
        assertThat(serialize(serializerOf(WordCount.class), new WordCount(null, 0)))
                .containsExactly(1, 0, 0, 0, 0, 0, 0, 0, 0, 0);
        assertThat(serialize(serializerOf(WordCount.class), null)).containsExactly(0);
    }

    @Test
    void nestedPojosWithNullFieldsRoundTrip() throws Exception {
        Order empty = new Order();
        Order partial = fullOrder();
        partial.setItem(new WordCount(null, -1));
        partial.setTags(null);
        partial.setStatus(null);
        SerializerTestHarness.of(serializerOf(Order.class)).verify(fullOrder(), empty, partial, null);
    }

    @Test
    void aPojoSubclassOfAPojoRoundTripsWithTheFieldsOfBoth() throws Exception {
        RushOrder rush = new RushOrder();
        rush.setId(7);
        rush.setItem(new WordCount("pear", 1));
        rush.courier = "bike";
        rush.priority = 2;
        TypeSerializer<Order> orders = serializerOf(Order.class);
        SerializerTestHarness.of(orders).verify(rush, fullOrder(), new RushOrder());
        Order back = deserialize(orders, serialize(orders, rush));
        assertThat(back).isExactlyInstanceOf(RushOrder.class).isEqualTo(rush);
        // The header says "subclass", then the class name follows.
        byte[] bytes = serialize(orders, rush);
        assertThat(bytes[0]).isEqualTo((byte) 2);
        assertThat(deserialize(dev.runnel.api.common.typeutils.base.StringSerializer.INSTANCE, Arrays.copyOfRange(bytes, 1,
                bytes.length))).isEqualTo(RushOrder.class.getName());
        assertThat(((PojoTypeInfo<?>) TypeInformation.of(RushOrder.class)).getFieldNames()).containsExactly("courier",
                "express", "grade", "id", "item", "notes", "placed", "price", "priority", "quantities", "sizes", "status",
                "tags");
    }

    @Test
    void aSubclassThatIsNotAPojoNeedsAKryoRegistration() throws Exception {
        FrozenWordCount frozen = new FrozenWordCount("ice", 3, "cold");
        assertThatThrownBy(() -> serialize(serializerOf(WordCount.class), frozen))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("a " + FrozenWordCount.class.getName() + " is a subclass of the POJO type "
                        + WordCount.class.getName() + " and is written with its own serializer, but it has none")
                .hasMessageContaining("env.getConfig().registerKryoType(" + FrozenWordCount.class.getCanonicalName() + ".class)")
                .hasMessageContaining("it is not one because it has no no-argument constructor");

        ExecutionConfig env = new ExecutionConfig();
        env.registerKryoType(FrozenWordCount.class);
        TypeSerializer<WordCount> words = serializerOf(WordCount.class, env.getSerializerConfig());
        FrozenWordCount back = (FrozenWordCount) deserialize(words, serialize(words, frozen));
        assertThat(back.note).isEqualTo("cold");
        assertThat(back).isEqualTo(new WordCount("ice", 3));
        assertThat(words.copy(frozen)).isInstanceOf(FrozenWordCount.class).isNotSameAs(frozen);
    }

    @Test
    void copiesAreDeepAndIndependent() {
        TypeSerializer<Order> orders = serializerOf(Order.class);
        Order original = fullOrder();
        Order copy = orders.copy(original);
        assertThat(copy).isEqualTo(original).isNotSameAs(original);
        original.getItem().word = "changed";
        original.getTags().add("more");
        original.getQuantities().put("box", 1);
        original.getSizes()[0] = 99;
        original.getNotes()[0] = "changed";
        original.setId(0);
        assertThat(copy.getItem().word).isEqualTo("apple");
        assertThat(copy.getTags()).containsExactly("fresh", "red");
        assertThat(copy.getQuantities()).containsExactly(Map.entry("crate", 2));
        assertThat(copy.getSizes()).containsExactly(1, 2, 3);
        assertThat(copy.getNotes()).containsExactly("fragile", null);
        assertThat(copy.getId()).isEqualTo(42);
        assertThat(copy.getPlaced()).as("immutable fields are shared").isSameAs(original.getPlaced());
    }

    @Test
    void reuseFillsTheGivenInstance() throws Exception {
        TypeSerializer<Order> orders = serializerOf(Order.class);
        Order reuse = new Order();
        reuse.setItem(new WordCount("old", 1));
        WordCount nested = reuse.getItem();
        Order read = orders.deserialize(reuse, new DataInputDeserializer(serialize(orders, fullOrder())));
        assertThat(read).isSameAs(reuse).isEqualTo(fullOrder());
        assertThat(read.getItem()).as("the nested POJO is refilled too").isSameAs(nested);
        Order target = new Order();
        assertThat(orders.copy(fullOrder(), target)).isSameAs(target).isEqualTo(fullOrder());
    }

    @Test
    void corruptBytesNameThePositionAndWhatIsWrong() throws Exception {
        TypeSerializer<WordCount> words = serializerOf(WordCount.class);
        assertThatThrownBy(() -> deserialize(words, new byte[] {7}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("WordCount at position 0 has header byte 7, expected 0 (null), 1 (the class) or 2");
        assertThatThrownBy(() -> deserialize(words, new byte[] {1, 0, 0, 0, 0, 0, 0, 0, 5, 9}))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("POJO field WordCount.word at position 9 has presence byte 9, expected 0 or 1");
        assertThatThrownBy(() -> deserialize(words, new byte[] {1, 0, 0, 0}))
                .isInstanceOf(java.io.EOFException.class)
                .hasMessageContaining("position 1");
        TypeSerializer<Order> orders = serializerOf(Order.class);
        assertThatThrownBy(() -> deserialize(orders, subclassBytes(String.class.getName())))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Order at position 0 names the class java.lang.String, which is not a subclass of "
                        + Order.class.getName());
        assertThatThrownBy(() -> deserialize(orders, subclassBytes("com.example.Missing")))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("names the subclass com.example.Missing, which cannot be loaded");
        assertThatThrownBy(() -> deserialize(words, subclassBytes(FrozenWordCount.class.getName())))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("holds a " + FrozenWordCount.class.getName() + ", which cannot be read here");
    }

    private static byte[] subclassBytes(String className) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(32);
        out.writeByte(2);
        dev.runnel.api.common.typeutils.base.StringSerializer.INSTANCE.serialize(className, out);
        out.writeByte(1);
        return out.getCopyOfBuffer();
    }

    @Test
    void identityFollowsTheClassFieldsAndConfig() {
        assertThat(serializerOf(Order.class)).isEqualTo(serializerOf(Order.class))
                .hasSameHashCodeAs(serializerOf(Order.class))
                .isNotEqualTo(serializerOf(WordCount.class));
        SerializerConfig other = new SerializerConfig();
        other.registerKryoType(FrozenWordCount.class);
        assertThat(serializerOf(Order.class)).isNotEqualTo(serializerOf(Order.class, other));
        assertThat(serializerOf(WordCount.class)).hasToString("PojoSerializer<WordCount[n: LongSerializer, word: StringSerializer]>");
        assertThat(serializerOf(WordCount.class).acceptsNull()).isTrue();
        assertThat(serializerOf(WordCount.class).isImmutableType()).isFalse();
    }
}
