package dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;

/**
 * Serializes string bucket ids: version 1 is the length ({@code int}, big-endian) followed by the UTF-8 bytes.
 * Stateless; thread-safe.
 */
public final class SimpleVersionedStringSerializer implements SimpleVersionedSerializer<String> {

    public static final SimpleVersionedStringSerializer INSTANCE = new SimpleVersionedStringSerializer();

    private static final int VERSION = 1;

    private SimpleVersionedStringSerializer() {}

    @Override
    public int getVersion() {
        return VERSION;
    }

    @Override
    public byte[] serialize(String value) {
        byte[] utf8 = value.getBytes(StandardCharsets.UTF_8);
        return ByteBuffer.allocate(4 + utf8.length).putInt(utf8.length).put(utf8).array();
    }

    @Override
    public String deserialize(int version, byte[] serialized) throws IOException {
        if (version != VERSION) {
            throw new IOException("Cannot read a string bucket id of version " + version + "; this Runnel reads version "
                    + VERSION);
        }
        ByteBuffer in = ByteBuffer.wrap(serialized);
        int length = in.getInt();
        if (length != serialized.length - 4) {
            throw new IOException("A serialized bucket id says " + length + " bytes but has " + (serialized.length - 4));
        }
        return new String(serialized, 4, length, StandardCharsets.UTF_8);
    }
}
