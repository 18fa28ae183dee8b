package dev.runnel.connector.file.sink;

/**
 * What a {@link RollingPolicy} may know about the in-progress part file it decides on. A view owned by
 * the writer; valid only during the policy call. Times are processing time in epoch milliseconds.
 */
public interface PartFileInfo {

    /** When the part was opened. */
    long getCreationTime();

    /** When a record was last written to it. */
    long getLastUpdateTime();

    /** How many bytes have been written to it (including any still buffered). */
    long getSize();
}
