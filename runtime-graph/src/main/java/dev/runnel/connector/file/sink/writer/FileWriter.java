package dev.runnel.connector.file.sink.writer;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.connector.file.sink.OutputFileConfig;
import dev.runnel.connector.file.sink.PartFileInfo;
import dev.runnel.connector.file.sink.RollingPolicy;
import dev.runnel.core.fs.Path;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.StandardCopyOption;
import java.util.Objects;
import java.util.UUID;

/**
 * The writer of one {@code FileSink} subtask: encodes records into an in-progress part file and, when
 * the rolling policy says so or the input ends, makes it final with an atomic rename.
 *
 * <pre>
 *   write ──► .part-0-3.inprogress.&lt;uuid&gt;   (hidden: readers of the directory skip it)
 *   roll  ──► flush, fsync, rename ──► part-0-3    (complete records only, never changes again)
 * </pre>
 *
 * <ul>
 *   <li>A part is opened at the first record after a roll, so no empty parts are written.
 *   <li>{@link #flush flush(true)} (end of input) rolls the open part; {@code flush(false)} only pushes
 *       buffered bytes to the in-progress file (and rolls it if the policy's time says so).
 *   <li>{@link #close()} without a final flush (the job failed or was cancelled) closes the in-progress
 *       file and leaves it under its hidden name for inspection: it is not valid output and is never
 *       renamed. Parts rolled before stay final.
 *   <li>A final name that already exists (an earlier run's output) is never overwritten: the counter
 *       moves on to the next free name.
 * </ul>
 *
 * Task thread only. Owns the in-progress file and its stream; the encoder and policy are shared
 * configuration.
 *
 * @param <IN> the record type
 */
public final class FileWriter<IN> implements SinkWriter<IN> {

    static final int BUFFER_SIZE = 64 * 1024;

    private final Path basePath;
    private final java.nio.file.Path directory;
    private final Encoder<IN> encoder;
    private final RollingPolicy<IN> rollingPolicy;
    private final OutputFileConfig outputFileConfig;
    private final WriterInitContext context;
    private final int subtask;
    private long partCounter;
    private InProgressPart inProgress;

    /**
     * Creates the output directory if needed.
     *
     * @param basePath the directory all parts go to (one bucket); not null
     * @param encoder writes each record; not null
     * @param rollingPolicy decides when parts roll; not null
     * @param outputFileConfig the part names; not null
     * @param context the subtask's context, for its index and processing time; not null
     * @throws IOException naming the directory if it cannot be created
     */
    public FileWriter(Path basePath, Encoder<IN> encoder, RollingPolicy<IN> rollingPolicy,
            OutputFileConfig outputFileConfig, WriterInitContext context) throws IOException {
        this.basePath = Objects.requireNonNull(basePath, "basePath");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.rollingPolicy = Objects.requireNonNull(rollingPolicy, "rollingPolicy");
        this.outputFileConfig = Objects.requireNonNull(outputFileConfig, "outputFileConfig");
        this.context = Objects.requireNonNull(context, "context");
        this.subtask = context.getSubtaskId();
        this.directory = basePath.toLocalPath();
        createDirectory();
    }

    private void createDirectory() throws IOException {
        try {
            Files.createDirectories(directory);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("Cannot create the output directory " + basePath
                    + " of the file sink: it exists and is not a directory", e);
        } catch (AccessDeniedException e) {
            throw new IOException("Cannot create the output directory " + basePath
                    + " of the file sink: permission denied on " + e.getFile(), e);
        } catch (IOException e) {
            throw new IOException("Cannot create the output directory " + basePath + " of the file sink: " + e, e);
        }
    }

    @Override
    public void write(IN element, Context writeContext) throws IOException {
        long now = context.currentProcessingTime();
        if (inProgress != null && (rollingPolicy.shouldRollOnProcessingTime(inProgress, now)
                || rollingPolicy.shouldRollOnEvent(inProgress, element))) {
            rollInProgress();
        }
        if (inProgress == null) {
            inProgress = openPart(now);
        }
        try {
            encoder.encode(element, inProgress.stream);
        } catch (IOException e) {
            throw new IOException("Cannot write to the in-progress part file " + inProgress.file + ": " + e.getMessage(), e);
        }
        inProgress.lastUpdateTime = now;
    }

    @Override
    public void flush(boolean endOfInput) throws IOException {
        if (inProgress == null) {
            return;
        }
        if (endOfInput || rollingPolicy.shouldRollOnProcessingTime(inProgress, context.currentProcessingTime())) {
            rollInProgress();
        } else {
            inProgress.buffered.flush();
        }
    }

    /**
     * Closes the in-progress file, if any, without making it final: its buffered bytes are written so
     * the hidden file can be inspected, but it keeps its in-progress name.
     */
    @Override
    public void close() throws IOException {
        InProgressPart part = inProgress;
        inProgress = null;
        if (part != null) {
            try {
                part.buffered.flush();
            } finally {
                part.out.close();
            }
        }
    }

    private InProgressPart openPart(long now) throws IOException {
        String name = partName(partCounter);
        java.nio.file.Path file = directory.resolve("." + name + ".inprogress." + UUID.randomUUID());
        try {
            Files.createFile(file);
            return new InProgressPart(file, new FileOutputStream(file.toFile()), now);
        } catch (IOException e) {
            throw new IOException("Cannot create the part file " + file + " in the output directory " + basePath + ": "
                    + e, e);
        }
    }

    /** Flushes, syncs and closes the in-progress part, then renames it to its final name. */
    private void rollInProgress() throws IOException {
        InProgressPart part = inProgress;
        inProgress = null;
        try {
            part.buffered.flush();
            part.out.getFD().sync();
        } finally {
            part.out.close();
        }
        java.nio.file.Path target = directory.resolve(partName(partCounter));
        while (Files.exists(target)) {
            partCounter++;
            target = directory.resolve(partName(partCounter));
        }
        try {
            Files.move(part.file, target, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new IOException("Cannot rename the part file " + part.file + " to " + target + ": " + e, e);
        }
        partCounter++;
    }

    private String partName(long counter) {
        return outputFileConfig.getPartPrefix() + "-" + subtask + "-" + counter + outputFileConfig.getPartSuffix();
    }

    /** The open part: its file, its streams and what the rolling policy sees. */
    private static final class InProgressPart implements PartFileInfo {
        final java.nio.file.Path file;
        final FileOutputStream out;
        final BufferedOutputStream buffered;
        final CountingStream stream;
        final long creationTime;
        long lastUpdateTime;

        InProgressPart(java.nio.file.Path file, FileOutputStream out, long now) {
            this.file = file;
            this.out = out;
            this.buffered = new BufferedOutputStream(out, BUFFER_SIZE);
            this.stream = new CountingStream(buffered);
            this.creationTime = now;
            this.lastUpdateTime = now;
        }

        @Override
        public long getCreationTime() {
            return creationTime;
        }

        @Override
        public long getLastUpdateTime() {
            return lastUpdateTime;
        }

        @Override
        public long getSize() {
            return stream.count;
        }
    }

    /** What the encoder writes to: counts bytes, and ignores close() (the writer owns the file). */
    private static final class CountingStream extends OutputStream {
        private final OutputStream target;
        long count;

        CountingStream(OutputStream target) {
            this.target = target;
        }

        @Override
        public void write(int b) throws IOException {
            target.write(b);
            count++;
        }

        @Override
        public void write(byte[] b, int off, int len) throws IOException {
            target.write(b, off, len);
            count += len;
        }

        @Override
        public void flush() {
            // Flushing is the writer's business; an encoder flushing per record would only cost syscalls.
        }

        @Override
        public void close() {
            // The writer closes the file when it rolls.
        }
    }
}
