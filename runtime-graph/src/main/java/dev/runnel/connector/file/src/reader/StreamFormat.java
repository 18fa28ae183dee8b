package dev.runnel.connector.file.src.reader;

import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import java.io.Closeable;
import java.io.IOException;
import java.io.InputStream;
import java.io.Serializable;

/**
 * A file format read record by record from a byte stream, for
 * {@code FileSource.forRecordStreamFormat(format, paths)}. The format is serializable configuration;
 * each source reader calls {@link #createReader} for every file (split) it reads, on its task thread.
 *
 * <p>Formats are not splittable here: a file is read by one reader from start to end, and resumes
 * from a checkpointed byte offset that the format itself reported.
 *
 * @param <T> the record type
 */
public interface StreamFormat<T> extends Serializable, ResultTypeQueryable<T> {

    /**
     * A reader of one file.
     *
     * @param stream the file's bytes, positioned at {@code offset}; unbuffered, so the format should
     *     read it in chunks. Owned by the caller, which closes it after {@link Reader#close()}.
     * @param offset where {@code stream} starts in the file: 0, or an offset a previous
     *     {@link Reader#getCheckpointedOffset()} returned
     */
    Reader<T> createReader(InputStream stream, long offset) throws IOException;

    /**
     * Reads the records of one file. Task thread only; not thread-safe.
     *
     * @param <T> the record type
     */
    interface Reader<T> extends Closeable {

        /**
         * The next record, or null at the end of the file. May read one chunk of the stream, so it
         * may wait on the disk, but must not wait for anything else.
         */
        T read() throws IOException;

        /**
         * The byte offset in the file where the record after the last one returned starts: a reader
         * created at this offset returns exactly the records not returned yet.
         */
        long getCheckpointedOffset();
    }
}
