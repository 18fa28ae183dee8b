package dev.runnel.api.java.typeutils.runtime.kryo;

import static dev.runnel.api.common.typeutils.SerializerTestHarness.serialize;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.fail;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.SerializerTestHarness;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 120, unit = TimeUnit.SECONDS)
class KryoSerializerTest {

    /** A plain POJO with a no-arg constructor. */
    public static class Point {
        int x;
        int y;
        String label;

        public Point() {}

        Point(int x, int y, String label) {
            this.x = x;
            this.y = y;
            this.label = label;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Point p && p.x == x && p.y == y && Objects.equals(p.label, label);
        }

        @Override
        public int hashCode() {
            return Objects.hash(x, y, label);
        }
    }

    /** No no-arg constructor: needs the Objenesis fallback. */
    public static final class Money {
        final long cents;
        final String currency;

        Money(long cents, String currency) {
            this.cents = cents;
            this.currency = currency;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Money m && m.cents == cents && m.currency.equals(currency);
        }

        @Override
        public int hashCode() {
            return Long.hashCode(cents) ^ currency.hashCode();
        }
    }

    public static class Item {
        String sku;
        int quantity;

        public Item() {}

        Item(String sku, int quantity) {
            this.sku = sku;
            this.quantity = quantity;
        }

        @Override
        public boolean equals(Object o) {
            return o instanceof Item i && i.quantity == quantity && Objects.equals(i.sku, sku);
        }

        @Override
        public int hashCode() {
            return Objects.hash(sku, quantity);
        }
    }

    public static class Order {
        String id;
        ArrayList<Item> items = new ArrayList<>();
        transient Object cache;

        @Override
        public boolean equals(Object o) {
            return o instanceof Order other && Objects.equals(other.id, id) && Objects.equals(other.items, items);
        }

        @Override
        public int hashCode() {
            return Objects.hash(id, items);
        }
    }

    /** Many shapes whose Kryo serializers read a count before the elements. */
    public static class Bulky {
        byte[] bytes;
        int[] ints;
        long[] longs;
        String text;
        String[] texts;
        Integer[] boxed;
        ArrayList<String> list;
        HashMap<String, Integer> map;
    }

    public static class Node {
        String name;
        Node next;
    }

    private static SerializerConfig config(Class<?>... types) {
        SerializerConfig config = new SerializerConfig();
        for (Class<?> t : types) {
            config.registerKryoType(t);
        }
        return config;
    }

    @Test
    void registeredPojoRoundTrips() throws Exception {
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, config(Point.class));
        SerializerTestHarness.of(serializer).verify(new Point(1, 2, "a"), new Point(-1, Integer.MAX_VALUE, null),
                new Point(0, 0, "\uD83D\uDE00\uD800"), new Point(5, 5, "x".repeat(100_000)));
        Point original = new Point(3, 4, "p");
        Point copy = serializer.copy(original);
        assertThat(copy).isEqualTo(original).isNotSameAs(original);
    }

    @Test
    void nullsRoundTrip() throws Exception {
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, config(Point.class));
        assertThat(serializer.acceptsNull()).isTrue();
        assertThat(serializer.deserialize(new DataInputDeserializer(serialize(serializer, null)))).isNull();
        assertThat(serializer.copy(null)).isNull();
    }

    @Test
    void classesWithoutNoArgConstructorWork() throws Exception {
        KryoSerializer<Money> serializer = new KryoSerializer<>(Money.class, config(Money.class));
        SerializerTestHarness.of(serializer).verify(new Money(100, "EUR"), new Money(Long.MIN_VALUE, ""));
    }

    @Test
    void nestedObjectsAndCollectionsAreCopiedDeeply() throws Exception {
        KryoSerializer<Order> serializer = new KryoSerializer<>(Order.class, config(Order.class, ArrayList.class, Item.class));
        Order order = new Order();
        order.id = "o-1";
        order.items.add(new Item("apple", 3));
        SerializerTestHarness.of(serializer).verify(order, new Order());
        Order copy = serializer.copy(order);
        order.items.get(0).quantity = 99;
        order.items.add(new Item("pear", 1));
        assertThat(copy.items).containsExactly(new Item("apple", 3));
    }

    @Test
    void cyclicGraphsRoundTrip() throws Exception {
        KryoSerializer<Node> serializer = new KryoSerializer<>(Node.class, config(Node.class));
        Node a = new Node();
        Node b = new Node();
        a.name = "a";
        b.name = "b";
        a.next = b;
        b.next = a;
        Node read = serializer.deserialize(new DataInputDeserializer(serialize(serializer, a)));
        assertThat(read.name).isEqualTo("a");
        assertThat(read.next.name).isEqualTo("b");
        assertThat(read.next.next).isSameAs(read);
    }

    @Test
    void unregisteredClassFailsWithOurMessage() {
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, new SerializerConfig());
        assertThatThrownBy(() -> serialize(serializer, new Point(1, 2, "a")))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("class " + Point.class.getCanonicalName() + " is not registered")
                .hasMessageContaining("env.getConfig().registerKryoType(" + Point.class.getCanonicalName() + ".class)")
                .hasCauseInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void unregisteredNestedClassNamesTheFieldPath() {
        KryoSerializer<Order> serializer = new KryoSerializer<>(Order.class, config(Order.class));
        Order order = new Order();
        order.items.add(new Item("x", 1));
        assertThatThrownBy(() -> serialize(serializer, order))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("class java.util.ArrayList is not registered")
                .hasMessageContaining("env.getConfig().registerKryoType(java.util.ArrayList.class)")
                .hasMessageContaining("items (" + Order.class.getCanonicalName() + ")");
        // The failed Kryo was dropped, not returned half-used: the serializer still works afterwards.
        KryoSerializer<Order> fixed = new KryoSerializer<>(Order.class, config(Order.class, ArrayList.class, Item.class));
        assertThat(fixed.copy(order)).isEqualTo(order);
        assertThatThrownBy(() -> serializer.copy(order)).isInstanceOf(InvalidTypesException.class);
    }

    @Test
    void registrationCheckNamesFieldPathsUpFront() {
        KryoSerializer<Order> serializer = new KryoSerializer<>(Order.class, config(Order.class));
        assertThatThrownBy(serializer::checkRegistrations)
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageContaining("Order.items (java.util.ArrayList)")
                .hasMessageContaining("Order.items<E> (" + Item.class.getCanonicalName() + ")")
                .hasMessageContaining("env.getConfig().registerKryoType(java.util.ArrayList.class);")
                .hasMessageContaining("env.getConfig().registerKryoType(" + Item.class.getCanonicalName() + ".class);")
                // transient fields are not serialized, so not checked
                .hasMessageNotContaining("cache");

        KryoSerializer<Order> rootMissing = new KryoSerializer<>(Order.class, new SerializerConfig());
        assertThatThrownBy(rootMissing::checkRegistrations)
                .hasMessageContaining("Order (" + Order.class.getCanonicalName() + ")");

        new KryoSerializer<>(Order.class, config(Order.class, ArrayList.class, Item.class)).checkRegistrations();
        SerializerConfig open = new SerializerConfig();
        open.setKryoRegistrationRequired(false);
        new KryoSerializer<>(Order.class, open).checkRegistrations();
    }

    @Test
    void registrationCheckFollowsArraysAndCycles() {
        KryoSerializer<Bulky> serializer = new KryoSerializer<>(Bulky.class, config(Bulky.class, byte[].class));
        assertThatThrownBy(serializer::checkRegistrations)
                .hasMessageContaining("Bulky.ints (int[])")
                .hasMessageContaining("Bulky.map (java.util.HashMap)")
                .hasMessageContaining("registerKryoType(int[].class)")
                .hasMessageNotContaining("Bulky.bytes");
        // A self-referencing class terminates and needs only itself.
        new KryoSerializer<>(Node.class, config(Node.class)).checkRegistrations();
    }

    /** Holds what the JVM names unlike Java source: a primitive array, a nested array, a nested class. */
    public static class Holder {
        long[] longs = {1};
        String[][] names = {{"a"}};
        Item item = new Item("x", 1);
    }

    @Test
    void anUnregisteredArrayIsNamedAsInJavaSource() {
        KryoSerializer<long[]> serializer = new KryoSerializer<>(long[].class, new SerializerConfig());
        assertThatThrownBy(() -> serialize(serializer, new long[] {1, 2}))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessage("class long[] is not registered with Kryo, which Runnel requires because Kryo would"
                        + " otherwise instantiate any class named in the bytes it reads. Register it before building"
                        + " the job: env.getConfig().registerKryoType(long[].class) (needed to serialize a long[])");
    }

    @Test
    void theRegistrationCheckNamesArraysAsInJavaSource() {
        KryoSerializer<long[]> serializer = new KryoSerializer<>(long[].class, new SerializerConfig());
        assertThatThrownBy(serializer::checkRegistrations)
                .isInstanceOf(InvalidTypesException.class)
                .hasMessage("long[] is serialized with Kryo, which requires every class it writes to be registered,"
                        + " but these are not: long[] (long[]). Register them before building the job:"
                        + System.lineSeparator() + "  env.getConfig().registerKryoType(long[].class);"
                        + System.lineSeparator() + "Registration is required because Kryo would otherwise instantiate"
                        + " any class named in the bytes it reads. This check follows declared field types; also"
                        + " register the runtime classes of fields declared as interfaces or abstract classes.");
    }

    @Test
    void theRegistrationCheckNamesNestedArraysAndClassesAsInJavaSource() {
        String holder = Holder.class.getCanonicalName();
        String item = Item.class.getCanonicalName();
        KryoSerializer<Holder> serializer = new KryoSerializer<>(Holder.class, config(Holder.class));
        assertThatThrownBy(serializer::checkRegistrations)
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageStartingWith(holder + " is serialized with Kryo, which requires every class it writes to be"
                        + " registered, but these are not: Holder.longs (long[]), Holder.names (java.lang.String[][]),"
                        + " Holder.names[] (java.lang.String[]), Holder.item (" + item + "). Register them before"
                        + " building the job:" + System.lineSeparator()
                        + "  env.getConfig().registerKryoType(long[].class);" + System.lineSeparator()
                        + "  env.getConfig().registerKryoType(java.lang.String[][].class);" + System.lineSeparator()
                        + "  env.getConfig().registerKryoType(java.lang.String[].class);" + System.lineSeparator()
                        + "  env.getConfig().registerKryoType(" + item + ".class);" + System.lineSeparator());
    }

    @Test
    void aNestedClassInKryosTraceIsNamedAsInJavaSource() {
        String holder = Holder.class.getCanonicalName();
        String item = Item.class.getCanonicalName();
        KryoSerializer<Holder> serializer = new KryoSerializer<>(Holder.class,
                config(Holder.class, long[].class, String[][].class, String[].class));
        assertThatThrownBy(() -> serialize(serializer, new Holder()))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessage("class " + item + " is not registered with Kryo, which Runnel requires because Kryo would"
                        + " otherwise instantiate any class named in the bytes it reads. Register it before building"
                        + " the job: env.getConfig().registerKryoType(" + item + ".class) (needed to serialize a "
                        + holder + ", at item (" + holder + "))");
    }

    @Test
    void registrationIsOptionalWhenTurnedOff() throws Exception {
        SerializerConfig open = new SerializerConfig();
        open.setKryoRegistrationRequired(false);
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, open);
        Point p = new Point(7, 8, "open");
        assertThat(serializer.deserialize(new DataInputDeserializer(serialize(serializer, p)))).isEqualTo(p);
    }

    @Test
    void sameConfigInAnotherProcessReadsTheSameIds() throws Exception {
        // Two independently built configs stand in for two JVMs.
        KryoSerializer<Object> writer = new KryoSerializer<>(Object.class, config(Point.class, Money.class));
        KryoSerializer<Object> reader = new KryoSerializer<>(Object.class, config(Point.class, Money.class));
        byte[] bytes = serialize(writer, new Money(5, "USD"));
        assertThat(reader.deserialize(new DataInputDeserializer(bytes))).isEqualTo(new Money(5, "USD"));
        assertThat(serialize(reader, new Money(5, "USD"))).isEqualTo(bytes);

        // Another order assigns other ids: the reader sees a different class and says so.
        KryoSerializer<Money> swapped = new KryoSerializer<>(Money.class, config(Money.class, Point.class));
        assertThatThrownBy(() -> swapped.deserialize(new DataInputDeserializer(bytes)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("position 0")
                .hasMessageContaining("same order");
    }

    @Test
    void pooledKryosServeConcurrentThreads() throws Exception {
        KryoSerializer<Order> serializer = new KryoSerializer<>(Order.class, config(Order.class, ArrayList.class, Item.class));
        int threads = 6;
        ExecutorService executor = Executors.newFixedThreadPool(threads);
        try {
            List<Future<Integer>> results = new ArrayList<>();
            for (int t = 0; t < threads; t++) {
                int thread = t;
                Callable<Integer> task = () -> {
                    DataOutputSerializer out = new DataOutputSerializer(128);
                    int checked = 0;
                    for (int i = 0; i < 3000; i++) {
                        Order order = new Order();
                        order.id = thread + "-" + i;
                        for (int k = 0; k < i % 7; k++) {
                            order.items.add(new Item("sku" + thread + "/" + k, i));
                        }
                        out.clear();
                        serializer.serialize(order, out);
                        Order read = serializer.deserialize(new DataInputDeserializer(out.getCopyOfBuffer()));
                        if (!read.equals(order) || !serializer.copy(order).equals(order)) {
                            throw new AssertionError("thread " + thread + " read a different order at " + i);
                        }
                        checked++;
                    }
                    return checked;
                };
                results.add(executor.submit(task));
            }
            for (Future<Integer> result : results) {
                assertThat(result.get(60, TimeUnit.SECONDS)).isEqualTo(3000);
            }
        } finally {
            executor.shutdownNow();
        }
    }

    @Test
    void hugeOuterLengthFailsFast() {
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, config(Point.class));
        SerializerTestHarness.assertCorrupt(serializer, SerializerTestHarness.hugeLengthPrefix());
    }

    @Test
    void garbageInsideTheFrameIsCorruptData() {
        KryoSerializer<Point> serializer = new KryoSerializer<>(Point.class, config(Point.class));
        // A frame of 3 bytes holding an unregistered class id.
        assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(new byte[] {3, 100, 1, 1})))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("position 0");
        // Bytes left over inside the frame.
        byte[] valid = serializeUnchecked(serializer, new Point(1, 1, "a"));
        byte[] padded = Arrays.copyOf(valid, valid.length + 1);
        padded[0]++;
        assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(padded)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageContaining("Kryo read");
    }

    @Test
    void flippedBytesNeverEscapeAsAnythingButIOException() {
        KryoSerializer<Bulky> serializer = new KryoSerializer<>(Bulky.class, bulkyConfig());
        byte[] valid = serializeUnchecked(serializer, bulky());
        int[] replacements = {0x00, 0x01, 0x7F, 0x80, 0xFF};
        for (int i = 1; i < valid.length; i++) {
            for (int r : replacements) {
                byte[] corrupt = valid.clone();
                corrupt[i] = (byte) r;
                readExpectingIOExceptionOrValue(serializer, corrupt, "byte " + i + " set to " + r);
            }
        }
    }

    @Test
    void hugeCountsInsideKryoDataFailBeforeAllocating() {
        KryoSerializer<Bulky> serializer = new KryoSerializer<>(Bulky.class, bulkyConfig());
        byte[] valid = serializeUnchecked(serializer, bulky());
        DataInputDeserializer frame = new DataInputDeserializer(valid);
        int length;
        try {
            length = frame.readVarInt();
        } catch (IOException e) {
            throw new AssertionError(e);
        }
        byte[] payload = Arrays.copyOfRange(valid, frame.position(), frame.position() + length);
        byte[] huge = {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07};
        int guarded = 0;
        for (int i = 0; i < payload.length; i++) {
            // Replace byte i by a five-byte varint of 2^31 - 1, wherever a count might be.
            byte[] spliced = new byte[payload.length + 4];
            System.arraycopy(payload, 0, spliced, 0, i);
            System.arraycopy(huge, 0, spliced, i, 5);
            System.arraycopy(payload, i + 1, spliced, i + 5, payload.length - i - 1);
            DataOutputSerializer out = new DataOutputSerializer(spliced.length + 5);
            out.writeVarInt(spliced.length);
            out.write(spliced, 0, spliced.length);
            String message = readExpectingIOExceptionOrValue(serializer, out.getCopyOfBuffer(), "huge varint at " + i);
            // Kryo wraps an OutOfMemoryError from a field as a KryoException: the guards must stop the
            // count before any allocation is attempted.
            if (message == null) {
                continue; // the splice happened to decode
            }
            assertThat(message).as("huge varint at %s", i).doesNotContain("OutOfMemoryError");
            if (message.contains("claims")) {
                guarded++;
            }
        }
        assertThat(guarded).as("positions where a guard caught the count").isGreaterThanOrEqualTo(5);
    }

    private static String readExpectingIOExceptionOrValue(KryoSerializer<Bulky> serializer, byte[] bytes, String what) {
        try {
            serializer.deserialize(new DataInputDeserializer(bytes));
            return null;
        } catch (IOException e) {
            assertThat(e.getMessage()).as(what).containsPattern("position \\d+");
            return e.getMessage();
        } catch (Throwable t) {
            fail(what + " escaped as " + t, t);
            return null;
        }
    }

    private static SerializerConfig bulkyConfig() {
        return config(Bulky.class, byte[].class, int[].class, long[].class, String[].class, Integer[].class,
                ArrayList.class, HashMap.class);
    }

    private static Bulky bulky() {
        Bulky b = new Bulky();
        b.bytes = new byte[20];
        b.ints = new int[] {1, 2, 3};
        b.longs = new long[] {Long.MAX_VALUE, 5};
        b.text = "gr\u00FC\u00DFe \u20AC".repeat(3);
        b.texts = new String[] {"a", "b\u00E9", null};
        b.boxed = new Integer[] {1, null, 3};
        b.list = new ArrayList<>(List.of("x", "y\u00FF", "z"));
        b.map = new HashMap<>(Map.of("k", 1, "l\u00E9", 2));
        return b;
    }

    private static <T> byte[] serializeUnchecked(KryoSerializer<T> serializer, T value) {
        try {
            return serialize(serializer, value);
        } catch (IOException e) {
            throw new AssertionError(e);
        }
    }
}
