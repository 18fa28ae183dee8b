package dev.runnel.connector.file.src.impl;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.lib.util.SequentialSplitReader;
import dev.runnel.connector.file.src.FileSourceSplit;
import dev.runnel.connector.file.src.reader.StreamFormat;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.Objects;

/**
 * Reads the files assigned to one subtask, one after another, one record per poll. It asks the
 * enumerator for the next file whenever it has none left, and ends once the enumerator says there
 * are no more (the queue and the requests: {@link SequentialSplitReader}).
 *
 * <p>A poll reads at most one chunk of the current file (the format's buffer), so the task thread
 * waits on the local disk at most for that; no extra thread is used. A file that cannot be opened or
 * read fails the reader with an {@link IOException} naming the file.
 *
 * <p>Task thread only. Owns the open file stream of its current split.
 *
 * @param <T> the record type
 */
public final class FileSourceReader<T> extends SequentialSplitReader<T, FileSourceSplit> {

    private final StreamFormat<T> format;
    private InputStream currentStream;
    private StreamFormat.Reader<T> currentReader;

    /**
     * @param context the subtask's context, for split requests; not null
     * @param format reads each file's records; not null
     */
    public FileSourceReader(SourceReaderContext context, StreamFormat<T> format) {
        super(context);
        this.format = Objects.requireNonNull(format, "format");
    }

    @Override
    protected boolean emitNext(FileSourceSplit split, ReaderOutput<T> output) throws IOException {
        T record;
        try {
            record = currentReader.read();
        } catch (IOException e) {
            throw new IOException("Cannot read input file " + split.path() + " (near byte "
                    + currentReader.getCheckpointedOffset() + "): " + e.getMessage(), e);
        }
        if (record == null) {
            return false;
        }
        output.collect(record);
        return true;
    }

    @Override
    protected void openSplit(FileSourceSplit split) throws IOException {
        java.nio.file.Path file = split.path().toLocalPath();
        FileInputStream stream;
        try {
            stream = new FileInputStream(file.toFile());
        } catch (FileNotFoundException e) {
            if (!Files.exists(file)) {
                throw new IOException("Input file " + split.path() + " does not exist (any more)", e);
            }
            if (!Files.isReadable(file)) {
                throw new IOException("Cannot read input file " + split.path() + ": permission denied", e);
            }
            throw new IOException("Cannot open input file " + split.path() + ": " + e.getMessage(), e);
        }
        try {
            long remaining = split.offset();
            while (remaining > 0) {
                long skipped = stream.skip(remaining);
                if (skipped <= 0) {
                    break;
                }
                remaining -= skipped;
            }
            currentReader = format.createReader(stream, split.offset());
        } catch (IOException | RuntimeException e) {
            stream.close();
            throw new IOException("Cannot open input file " + split.path() + " at byte " + split.offset() + ": "
                    + e.getMessage(), e);
        }
        currentStream = stream;
    }

    /** The file at the position after the last emitted record. */
    @Override
    protected FileSourceSplit snapshotSplit(FileSourceSplit split) {
        return split.updateWithCheckpointedPosition(currentReader.getCheckpointedOffset());
    }

    @Override
    protected void closeSplit() throws IOException {
        StreamFormat.Reader<T> reader = currentReader;
        InputStream stream = currentStream;
        currentReader = null;
        currentStream = null;
        try {
            if (reader != null) {
                reader.close();
            }
        } finally {
            if (stream != null) {
                stream.close();
            }
        }
    }
}
