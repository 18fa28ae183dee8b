package dev.runnel.api.java.typeutils.runtime.kryo;

import com.esotericsoftware.kryo.Kryo;
import com.esotericsoftware.kryo.KryoException;
import com.esotericsoftware.kryo.SerializerFactory;
import com.esotericsoftware.kryo.io.Input;
import com.esotericsoftware.kryo.serializers.CollectionSerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.ObjectArraySerializer;
import com.esotericsoftware.kryo.serializers.DefaultArraySerializers.StringArraySerializer;
import com.esotericsoftware.kryo.serializers.MapSerializer;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.LinkedList;
import java.util.Map;
import java.util.Set;

/**
 * Stops Kryo's built-in serializers from allocating for a count that the bytes cannot back.
 *
 * <p>{@link KryoSerializer} hands Kryo exactly the bytes of one value, so reads past them fail. But
 * several Kryo serializers allocate for a count they read before reading the elements: a corrupt
 * count of two billion becomes an attempt to allocate gigabytes, which either succeeds (holding the
 * heap until the underflow is noticed) or ends in a full GC and an {@link OutOfMemoryError} (that
 * Kryo's field serializer then wraps). The guards here check such counts against the bytes left,
 * each element taking at least one byte, and fail with a {@link KryoException} before allocating. They cover primitive arrays, strings,
 * {@code Object[]}/{@code String[]}, {@code HashMap} and the mutable JDK collections; the data format
 * is unchanged.
 * Serializers they do not cover (e.g. for {@code List.of(...)} or user-registered ones) are still
 * bounded by the value's bytes, but may allocate before failing.
 */
final class KryoGuards {

    private KryoGuards() {}

    /** Collections whose Kryo serializer would be {@link CollectionSerializer}, pre-sized by the count. */
    private static final Set<Class<?>> PRESIZED_COLLECTIONS =
            Set.of(ArrayList.class, LinkedList.class, HashSet.class, LinkedHashSet.class, ArrayDeque.class);

    /** Maps whose Kryo serializer would be {@link MapSerializer}, pre-sized by the count. */
    private static final Set<Class<?>> PRESIZED_MAPS = Set.of(HashMap.class);

    /** Installs the guarded serializers as defaults; call before registering classes. */
    @SuppressWarnings("rawtypes") // Kryo's SerializerFactory takes raw Class
    static void install(Kryo kryo) {
        // String[] before Object[]: the first default whose type is assignable wins.
        kryo.addDefaultSerializer(String[].class, new SerializerFactory.BaseSerializerFactory<BoundedStringArraySerializer>() {
            @Override
            public BoundedStringArraySerializer newSerializer(Kryo k, Class type) {
                return new BoundedStringArraySerializer();
            }
        });
        kryo.addDefaultSerializer(Object[].class, new SerializerFactory.BaseSerializerFactory<BoundedObjectArraySerializer>() {
            @Override
            public BoundedObjectArraySerializer newSerializer(Kryo k, Class type) {
                return new BoundedObjectArraySerializer(k, type);
            }
        });
        kryo.addDefaultSerializer(Collection.class, new SerializerFactory<BoundedCollectionSerializer>() {
            @Override
            public BoundedCollectionSerializer newSerializer(Kryo k, Class type) {
                return new BoundedCollectionSerializer();
            }

            @Override
            public boolean isSupported(Class type) {
                // Exactly these classes: others (TreeSet, List.of, ...) keep Kryo's own serializers.
                return PRESIZED_COLLECTIONS.contains(type);
            }
        });
        kryo.addDefaultSerializer(Map.class, new SerializerFactory<BoundedMapSerializer>() {
            @Override
            public BoundedMapSerializer newSerializer(Kryo k, Class type) {
                return new BoundedMapSerializer();
            }

            @Override
            public boolean isSupported(Class type) {
                return PRESIZED_MAPS.contains(type);
            }
        });
    }

    /** The bytes left to read in {@code input}. */
    private static int remaining(Input input) {
        return input.limit() - input.position();
    }

    private static void checkCount(Input input, String what, long count, int minBytesPerElement) {
        if (count < 0 || count * minBytesPerElement > remaining(input)) {
            throw new KryoException(String.format(
                    "%s claims %s elements at Kryo offset %s, but only %s bytes remain", what, count, input.position(),
                    remaining(input)));
        }
    }

    /**
     * Checks the Kryo length prefix ahead (a positive varint holding count + 1, 0 meaning null)
     * without consuming it.
     */
    private static void checkCountAhead(Input input, String what) {
        if (remaining(input) <= 0) {
            return; // the serializer's own read fails with an underflow
        }
        int start = input.position();
        int countPlusOne;
        try {
            countPlusOne = input.readVarInt(true);
        } finally {
            input.setPosition(start);
        }
        if (countPlusOne > 1) {
            checkCount(input, what, countPlusOne - 1L, 1);
        }
    }

    /** An {@link Input} over one value's bytes whose bulk reads check their count first. */
    static final class BoundedInput extends Input {

        @Override
        public byte[] readBytes(int length) {
            checkCount(this, "byte[]", length, 1);
            return super.readBytes(length);
        }

        @Override
        public int[] readInts(int length) {
            checkCount(this, "int[]", length, 4);
            return super.readInts(length);
        }

        @Override
        public int[] readInts(int length, boolean optimizePositive) {
            checkCount(this, "int[]", length, varEncoding ? 1 : 4);
            return super.readInts(length, optimizePositive);
        }

        @Override
        public long[] readLongs(int length) {
            checkCount(this, "long[]", length, 8);
            return super.readLongs(length);
        }

        @Override
        public long[] readLongs(int length, boolean optimizePositive) {
            checkCount(this, "long[]", length, varEncoding ? 1 : 8);
            return super.readLongs(length, optimizePositive);
        }

        @Override
        public float[] readFloats(int length) {
            checkCount(this, "float[]", length, 4);
            return super.readFloats(length);
        }

        @Override
        public double[] readDoubles(int length) {
            checkCount(this, "double[]", length, 8);
            return super.readDoubles(length);
        }

        @Override
        public short[] readShorts(int length) {
            checkCount(this, "short[]", length, 2);
            return super.readShorts(length);
        }

        @Override
        public char[] readChars(int length) {
            checkCount(this, "char[]", length, 2);
            return super.readChars(length);
        }

        @Override
        public boolean[] readBooleans(int length) {
            checkCount(this, "boolean[]", length, 1);
            return super.readBooleans(length);
        }

        @Override
        public String readString() {
            checkUtf8CharCountAhead();
            return super.readString();
        }

        @Override
        public StringBuilder readStringBuilder() {
            checkUtf8CharCountAhead();
            return super.readStringBuilder();
        }

        /**
         * A Kryo string either is ASCII, ending at a flagged byte (bounded by the data), or starts with
         * a char count + 1 that sizes a char buffer: check that count, each char taking at least a byte.
         */
        private void checkUtf8CharCountAhead() {
            if (position >= limit || !readVarIntFlag()) {
                return;
            }
            int start = position;
            int countPlusOne;
            try {
                countPlusOne = readVarIntFlag(true);
            } finally {
                setPosition(start);
            }
            if (countPlusOne > 1) {
                checkCount(this, "String", countPlusOne - 1L, 1);
            }
        }
    }

    /** Kryo's {@code CollectionSerializer}, with the pre-sizing capped by the bytes left. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class BoundedCollectionSerializer extends CollectionSerializer<Collection> {
        @Override
        protected Collection create(Kryo kryo, Input input, Class<? extends Collection> type, int size) {
            // The size is only a capacity hint; the elements still have to be read one by one.
            return super.create(kryo, input, type, Math.max(0, Math.min(size, remaining(input))));
        }
    }

    /**
     * Kryo's {@code MapSerializer}, with the pre-sizing capped by the bytes left: a {@code HashMap}
     * sized for a corrupt count allocates its whole table on the first put.
     */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class BoundedMapSerializer extends MapSerializer<Map> {
        @Override
        protected Map create(Kryo kryo, Input input, Class<? extends Map> type, int size) {
            return super.create(kryo, input, type, Math.max(0, Math.min(size, remaining(input))));
        }
    }

    /** Kryo's {@code Object[]} serializer, checking the length before the array is allocated. */
    static final class BoundedObjectArraySerializer extends ObjectArraySerializer {
        BoundedObjectArraySerializer(Kryo kryo, Class<?> type) {
            super(kryo, type);
        }

        @Override
        @SuppressWarnings("rawtypes")
        public Object[] read(Kryo kryo, Input input, Class type) {
            checkCountAhead(input, type.getSimpleName());
            return super.read(kryo, input, type);
        }
    }

    /** Kryo's {@code String[]} serializer, checking the length before the array is allocated. */
    static final class BoundedStringArraySerializer extends StringArraySerializer {
        @Override
        @SuppressWarnings("rawtypes")
        public String[] read(Kryo kryo, Input input, Class type) {
            checkCountAhead(input, "String[]");
            return super.read(kryo, input, type);
        }
    }
}
