package dev.runnel.streaming.api.functions.sink.filesystem;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.Serializable;

/**
 * Chooses the bucket of each record: the sub-directory of the sink's base path its part file is written to
 * ({@code toString()} of the id; an empty id is the base path itself). Serializable configuration; called on
 * the writer's task thread once per record.
 *
 * @param <IN> the record type
 * @param <BucketID> the type of the bucket id
 */
public interface BucketAssigner<IN, BucketID> extends Serializable {

    /** The bucket of {@code element}; not null. */
    BucketID getBucketId(IN element, Context context);

    /** Writes bucket ids into the writer's checkpointed state. */
    SimpleVersionedSerializer<BucketID> getSerializer();

    /** What an assigner may know about the record it assigns. */
    interface Context {

        /** The wall clock, in epoch milliseconds. */
        long currentProcessingTime();

        /** The writer's current watermark. */
        long currentWatermark();

        /** The record's timestamp, or null. */
        Long timestamp();
    }
}
