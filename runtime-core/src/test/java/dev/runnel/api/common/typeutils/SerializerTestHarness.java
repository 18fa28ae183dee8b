package dev.runnel.api.common.typeutils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.core.memory.DataOutputView;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Objects;
import java.util.function.BiPredicate;

/**
 * Checks a serializer against the {@link TypeSerializer} contract for a set of values: round trips
 * through the in-place views and through generic views, reuse, copies, the fixed length, every
 * truncation failing with an {@link IOException} that names a position, back-to-back records, and
 * Java serialization of the serializer itself.
 */
public final class SerializerTestHarness<T> {

    /** Values whose encoding is longer than this get sampled truncations instead of all of them. */
    private static final int ALL_PREFIXES_UP_TO = 4096;

    private final TypeSerializer<T> serializer;
    private BiPredicate<Object, Object> equality = Objects::deepEquals;

    private SerializerTestHarness(TypeSerializer<T> serializer) {
        this.serializer = serializer;
    }

    public static <T> SerializerTestHarness<T> of(TypeSerializer<T> serializer) {
        return new SerializerTestHarness<>(serializer);
    }

    /** Replaces {@link Objects#deepEquals} for values whose equals is identity-based (e.g. tuples of arrays). */
    public SerializerTestHarness<T> withEquality(BiPredicate<Object, Object> equality) {
        this.equality = equality;
        return this;
    }

    @SafeVarargs
    public final void verify(T... values) throws Exception {
        List<T> list = new ArrayList<>(values.length);
        for (T value : values) {
            list.add(value);
        }
        verify(list);
    }

    public void verify(List<T> values) throws Exception {
        assertThat(values).isNotEmpty();
        for (T value : values) {
            verifyOne(value);
        }
        verifyBackToBack(values);
        verifyJavaSerializable(values.get(0));
    }

    private void verifyOne(T value) throws Exception {
        byte[] bytes = serialize(serializer, value);
        assertThat(bytes.length).as("every value takes at least one byte").isGreaterThanOrEqualTo(1);
        if (serializer.getLength() >= 0) {
            assertThat(bytes.length).as("fixed length of %s", serializer).isEqualTo(serializer.getLength());
        }

        // The same bytes through a view that is not the in-place DataOutputSerializer.
        ForwardingOutput generic = new ForwardingOutput();
        serializer.serialize(value, generic);
        assertThat(generic.out.getCopyOfBuffer()).as("generic view writes the same bytes").isEqualTo(bytes);

        DataInputDeserializer in = new DataInputDeserializer(bytes);
        assertEqual(serializer.deserialize(in), value, "round trip");
        assertThat(in.available()).as("consumed exactly its bytes").isZero();

        DataInputView forwarding = new ForwardingInput(new DataInputDeserializer(bytes));
        assertEqual(serializer.deserialize(forwarding), value, "round trip through a generic view");
        assertThat(forwarding.available()).isZero();

        assertEqual(serializer.deserialize(serializer.createInstance(), new DataInputDeserializer(bytes)), value,
                "deserialize with reuse");

        T copy = serializer.copy(value);
        assertEqual(copy, value, "copy");
        assertEqual(serializer.copy(value, serializer.createInstance()), value, "copy with reuse");

        verifyTruncations(bytes);
    }

    private void verifyTruncations(byte[] bytes) {
        int n = bytes.length;
        int step = n <= ALL_PREFIXES_UP_TO ? 1 : Math.max(1, n / 512);
        for (int length = 0; length < n; length = nextPrefix(length, n, step)) {
            int prefix = length;
            assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(Arrays.copyOf(bytes, prefix))))
                    .as("%s on the first %s of %s bytes", serializer, prefix, n)
                    .isInstanceOf(IOException.class)
                    .hasMessageMatching("(?s).*position \\d+.*");
        }
    }

    private static int nextPrefix(int length, int n, int step) {
        // Sampled mode still checks the first and last 64 prefixes, where headers and tails are.
        if (step == 1 || length < 64 || length >= n - 65) {
            return length + 1;
        }
        return Math.min(length + step, n - 65);
    }

    private void verifyBackToBack(List<T> values) throws Exception {
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (T value : values) {
            serializer.serialize(value, out);
        }
        DataInputDeserializer in = new DataInputDeserializer(out.getCopyOfBuffer());
        T reuse = serializer.createInstance();
        for (T value : values) {
            reuse = serializer.deserialize(reuse, in);
            assertEqual(reuse, value, "back-to-back with reuse");
        }
        assertThat(in.available()).isZero();
    }

    private void verifyJavaSerializable(T sample) throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
            oos.writeObject(serializer);
        }
        TypeSerializer<T> restored;
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
            @SuppressWarnings("unchecked")
            TypeSerializer<T> read = (TypeSerializer<T>) ois.readObject();
            restored = read;
        }
        assertThat(restored).isEqualTo(serializer);
        assertThat(restored.hashCode()).isEqualTo(serializer.hashCode());
        byte[] bytes = serialize(restored, sample);
        assertThat(bytes).isEqualTo(serialize(serializer, sample));
        assertEqual(restored.deserialize(new DataInputDeserializer(bytes)), sample, "restored serializer");
    }

    private void assertEqual(Object actual, Object expected, String what) {
        assertThat(equality.test(actual, expected)).as("%s: expected %s but got %s", what, expected, actual).isTrue();
    }

    public static <T> byte[] serialize(TypeSerializer<T> serializer, T value) throws IOException {
        DataOutputSerializer out = new DataOutputSerializer(64);
        serializer.serialize(value, out);
        return out.getCopyOfBuffer();
    }

    public static <T> T deserialize(TypeSerializer<T> serializer, byte[] bytes) throws IOException {
        return serializer.deserialize(new DataInputDeserializer(bytes));
    }

    /** A varint of {@code 2^31 - 1} and a few bytes: a length no real data could back. */
    public static byte[] hugeLengthPrefix() {
        return new byte[] {(byte) 0xFF, (byte) 0xFF, (byte) 0xFF, (byte) 0xFF, 0x07, 1, 2, 3, 4};
    }

    /** Asserts that deserializing {@code bytes} fails at once with a {@link CorruptDataException}. */
    public static void assertCorrupt(TypeSerializer<?> serializer, byte[] bytes) {
        assertThatThrownBy(() -> serializer.deserialize(new DataInputDeserializer(bytes)))
                .isInstanceOf(CorruptDataException.class)
                .hasMessageMatching("(?s).*position \\d+.*");
    }

    /** A {@link DataOutputView} that is not a {@link DataOutputSerializer}, to exercise generic paths. */
    public static final class ForwardingOutput implements DataOutputView {
        final DataOutputSerializer out = new DataOutputSerializer(64);

        public byte[] bytes() {
            return out.getCopyOfBuffer();
        }

        @Override public void writeBoolean(boolean v) { out.writeBoolean(v); }
        @Override public void writeByte(int v) { out.writeByte(v); }
        @Override public void writeShort(int v) { out.writeShort(v); }
        @Override public void writeChar(int v) { out.writeChar(v); }
        @Override public void writeInt(int v) { out.writeInt(v); }
        @Override public void writeLong(long v) { out.writeLong(v); }
        @Override public void writeFloat(float v) { out.writeFloat(v); }
        @Override public void writeDouble(double v) { out.writeDouble(v); }
        @Override public void write(byte[] b, int off, int len) { out.write(b, off, len); }
    }

    /** A {@link DataInputView} that is not a {@link DataInputDeserializer}, to exercise generic paths. */
    public static final class ForwardingInput implements DataInputView {
        private final DataInputDeserializer in;

        public ForwardingInput(DataInputDeserializer in) {
            this.in = in;
        }

        @Override public boolean readBoolean() throws IOException { return in.readBoolean(); }
        @Override public byte readByte() throws IOException { return in.readByte(); }
        @Override public int readUnsignedByte() throws IOException { return in.readUnsignedByte(); }
        @Override public short readShort() throws IOException { return in.readShort(); }
        @Override public char readChar() throws IOException { return in.readChar(); }
        @Override public int readInt() throws IOException { return in.readInt(); }
        @Override public long readLong() throws IOException { return in.readLong(); }
        @Override public float readFloat() throws IOException { return in.readFloat(); }
        @Override public double readDouble() throws IOException { return in.readDouble(); }
        @Override public void readFully(byte[] t, int off, int len) throws IOException { in.readFully(t, off, len); }
        @Override public void skipBytes(int count) throws IOException { in.skipBytes(count); }
        @Override public int available() { return in.available(); }
        @Override public int position() { return in.position(); }
    }
}
