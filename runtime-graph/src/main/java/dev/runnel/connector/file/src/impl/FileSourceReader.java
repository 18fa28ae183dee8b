package dev.runnel.connector.file.src.impl;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.connector.file.src.FileSourceSplit;
import dev.runnel.connector.file.src.reader.StreamFormat;
import dev.runnel.core.io.InputStatus;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;

/**
 * Reads the files assigned to one subtask, one after another, one record per poll. It asks the
 * enumerator for the next file whenever it has none left, and ends once the enumerator says there
 * are no more.
 *
 * <p>A poll reads at most one chunk of the current file (the format's buffer), so the task thread
 * waits on the local disk at most for that; no extra thread is used. A file that cannot be opened or
 * read fails the reader with an {@link IOException} naming the file.
 *
 * <p>Task thread only. Owns the open file stream of its current split.
 *
 * @param <T> the record type
 */
public final class FileSourceReader<T> implements SourceReader<T, FileSourceSplit> {

    private final SourceReaderContext context;
    private final StreamFormat<T> format;
    private final Queue<FileSourceSplit> pending = new ArrayDeque<>();
    private CompletableFuture<Void> availability = new CompletableFuture<>();
    private FileSourceSplit current;
    private InputStream currentStream;
    private StreamFormat.Reader<T> currentReader;
    private boolean noMoreSplits;
    private boolean requested;

    /**
     * @param context the subtask's context, for split requests; not null
     * @param format reads each file's records; not null
     */
    public FileSourceReader(SourceReaderContext context, StreamFormat<T> format) {
        this.context = Objects.requireNonNull(context, "context");
        this.format = Objects.requireNonNull(format, "format");
    }

    @Override
    public void start() {
        request();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<T> output) throws IOException {
        if (currentReader != null) {
            T record;
            try {
                record = currentReader.read();
            } catch (IOException e) {
                throw new IOException("Cannot read input file " + current.path() + " (near byte "
                        + currentReader.getCheckpointedOffset() + "): " + e.getMessage(), e);
            }
            if (record != null) {
                output.collect(record);
                return InputStatus.MORE_AVAILABLE;
            }
            closeCurrent();
        }
        FileSourceSplit next = pending.poll();
        if (next != null) {
            open(next);
            return InputStatus.MORE_AVAILABLE;
        }
        if (noMoreSplits) {
            return InputStatus.END_OF_INPUT;
        }
        request();
        if (availability.isDone()) {
            availability = new CompletableFuture<>();
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    private void open(FileSourceSplit split) throws IOException {
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
        current = split;
        currentStream = stream;
    }

    private void closeCurrent() throws IOException {
        StreamFormat.Reader<T> reader = currentReader;
        InputStream stream = currentStream;
        currentReader = null;
        currentStream = null;
        current = null;
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

    private void request() {
        if (!requested) {
            requested = true;
            context.sendSplitRequest();
        }
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return availability;
    }

    @Override
    public void addSplits(List<FileSourceSplit> splits) {
        pending.addAll(splits);
        requested = false;
        availability.complete(null);
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        availability.complete(null);
    }

    /** The current file at the position after the last emitted record, then the files not started. */
    @Override
    public List<FileSourceSplit> snapshotState(long checkpointId) {
        List<FileSourceSplit> state = new ArrayList<>();
        if (current != null) {
            state.add(current.updateWithCheckpointedPosition(currentReader.getCheckpointedOffset()));
        }
        state.addAll(pending);
        return state;
    }

    @Override
    public void close() throws IOException {
        closeCurrent();
    }
}
