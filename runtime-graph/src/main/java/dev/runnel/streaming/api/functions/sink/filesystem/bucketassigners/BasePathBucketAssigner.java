package dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners;

import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.streaming.api.functions.sink.filesystem.BucketAssigner;

/**
 * Puts every record into one bucket, the sink's base path itself (bucket id {@code ""}). Stateless.
 *
 * @param <T> the record type
 */
public class BasePathBucketAssigner<T> implements BucketAssigner<T, String> {

    private static final long serialVersionUID = 1L;

    @Override
    public String getBucketId(T element, Context context) {
        return "";
    }

    @Override
    public SimpleVersionedSerializer<String> getSerializer() {
        return SimpleVersionedStringSerializer.INSTANCE;
    }

    @Override
    public String toString() {
        return "BasePathBucketAssigner";
    }
}
