package dev.runnel.streaming.api.functions.sink.filesystem;

import java.io.IOException;

/**
 * What a {@link RollingPolicy} may know about the in-progress part file it decides on. A view owned by the
 * writer; valid only during the policy call. Times are processing time in epoch milliseconds.
 *
 * @param <BucketID> the type of the bucket id
 */
public interface PartFileInfo<BucketID> {

    /** The bucket the part belongs to. */
    BucketID getBucketId();

    /** When the part was opened. */
    long getCreationTime();

    /** How many bytes have been written to it (including any still buffered). */
    long getSize() throws IOException;

    /** When a record was last written to it. */
    long getLastUpdateTime();
}
