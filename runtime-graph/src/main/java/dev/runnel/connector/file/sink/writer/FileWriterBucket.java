package dev.runnel.connector.file.sink.writer;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.connector.file.sink.FileSinkCommittable;
import dev.runnel.streaming.api.functions.sink.filesystem.OutputFileConfig;
import dev.runnel.streaming.api.functions.sink.filesystem.PartFileInfo;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import java.io.BufferedOutputStream;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.nio.file.StandardOpenOption;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;

/**
 * One bucket (directory) of a {@link FileWriter}: at most one part in progress, and the parts rolled since the
 * last {@link #prepareCommit}, pending.
 *
 * <pre>
 *   open ──► .part-&lt;uuid&gt;-&lt;n&gt;.inprogress.&lt;uuid'&gt;   written, hidden
 *   roll ──► flush, fsync, close: pending (still hidden) ──► a committable at the next prepareCommit
 *   commit (FileCommitter, when the checkpoint completes) ──► rename to part-&lt;uuid&gt;-&lt;n&gt;
 * </pre>
 *
 * The uuid of the names is drawn per bucket object, so parts of different subtasks, and of a bucket restored
 * after a failure, never share a final name. Task thread only.
 */
final class FileWriterBucket<IN> {

    static final int BUFFER_SIZE = 64 * 1024;

    private final String bucketId;
    private final Path directory;
    private final String uniqueId = UUID.randomUUID().toString();
    private final Encoder<IN> encoder;
    private final RollingPolicy<IN, String> rollingPolicy;
    private final OutputFileConfig outputFileConfig;
    private final List<FileSinkCommittable> pending = new ArrayList<>();
    private long partCounter;
    private InProgressPart inProgress;

    FileWriterBucket(String bucketId, Path directory, Encoder<IN> encoder, RollingPolicy<IN, String> rollingPolicy,
            OutputFileConfig outputFileConfig) {
        this.bucketId = bucketId;
        this.directory = directory;
        this.encoder = encoder;
        this.rollingPolicy = rollingPolicy;
        this.outputFileConfig = outputFileConfig;
    }

    void write(IN element, long now) throws IOException {
        if (inProgress != null && (rollingPolicy.shouldRollOnProcessingTime(inProgress, now)
                || rollingPolicy.shouldRollOnEvent(inProgress, element))) {
            roll();
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

    /** A bucket check or a non-final flush: rolls the part if it is due by time, else pushes its buffer out. */
    void onProcessingTime(long now) throws IOException {
        if (inProgress == null) {
            return;
        }
        if (rollingPolicy.shouldRollOnProcessingTime(inProgress, now)) {
            roll();
        } else {
            inProgress.buffered.flush();
        }
    }

    /**
     * Rolls the part in progress if the input ended or the policy rolls at checkpoints, then hands over all
     * pending parts.
     */
    List<FileSinkCommittable> prepareCommit(boolean endOfInput) throws IOException {
        if (inProgress != null && (endOfInput || rollingPolicy.shouldRollOnCheckpoint(inProgress))) {
            roll();
        }
        List<FileSinkCommittable> committables = new ArrayList<>(pending);
        pending.clear();
        return committables;
    }

    /** The bucket's state: makes the part in progress durable up to here, and records that length. */
    FileWriterBucketState snapshotState() throws IOException {
        FileWriterBucketState.InProgressFile part = null;
        if (inProgress != null) {
            inProgress.buffered.flush();
            inProgress.out.getFD().sync();
            part = new FileWriterBucketState.InProgressFile(inProgress.file.toString(), inProgress.target.toString(),
                    inProgress.creationTime, inProgress.stream.count);
        }
        return new FileWriterBucketState(bucketId, directory.toString(), part);
    }

    boolean hasInProgress() {
        return inProgress != null;
    }

    /** Whether the bucket still holds anything: a part in progress or pending parts. */
    boolean isActive() {
        return inProgress != null || !pending.isEmpty();
    }

    /**
     * Takes over a part that was in progress at the restored checkpoint: cuts off what the failed attempt wrote
     * after it and either goes on writing into it ({@code resume}) or makes it pending as it is (when this
     * bucket already resumes another part, after a rescale merged two subtasks' buckets).
     */
    void restoreInProgress(FileWriterBucketState.InProgressFile part, boolean resume, long now) throws IOException {
        Path file = Paths.get(part.file());
        if (!Files.exists(file)) {
            throw new IOException("Cannot restore the in-progress part file " + file + " of bucket '" + bucketId
                    + "': it is gone. The file sink needs its in-progress files to recover; was the output directory"
                    + " changed while the job was down?");
        }
        try (FileChannel channel = FileChannel.open(file, StandardOpenOption.WRITE)) {
            if (channel.size() < part.length()) {
                throw new IOException("Cannot restore the in-progress part file " + file + ": it has " + channel.size()
                        + " bytes but the checkpoint recorded " + part.length());
            }
            channel.truncate(part.length());
            channel.force(true);
        }
        if (resume) {
            inProgress = new InProgressPart(file, Paths.get(part.targetFile()),
                    new FileOutputStream(file.toFile(), true), part.creationTime(), now, part.length());
        } else {
            pending.add(new FileSinkCommittable(bucketId, part.file(), part.targetFile(), part.length()));
        }
    }

    /** Closes the part in progress without making it pending: it stays hidden (a failure or cancellation). */
    void close() throws IOException {
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
        String name = outputFileConfig.getPartPrefix() + "-" + uniqueId + "-" + partCounter++
                + outputFileConfig.getPartSuffix();
        Path file = directory.resolve("." + name + ".inprogress." + UUID.randomUUID());
        try {
            Files.createFile(file);
            return new InProgressPart(file, directory.resolve(name), new FileOutputStream(file.toFile()), now, now, 0);
        } catch (IOException e) {
            throw new IOException("Cannot create the part file " + file + " in bucket '" + bucketId + "' (" + directory
                    + "): " + e, e);
        }
    }

    /** Flushes, syncs and closes the part in progress; it is pending until the next prepareCommit hands it over. */
    private void roll() throws IOException {
        InProgressPart part = inProgress;
        inProgress = null;
        try {
            part.buffered.flush();
            part.out.getFD().sync();
        } finally {
            part.out.close();
        }
        pending.add(new FileSinkCommittable(bucketId, part.file.toString(), part.target.toString(), part.stream.count));
    }

    /** The open part: its file, its streams and what the rolling policy sees. */
    private final class InProgressPart implements PartFileInfo<String> {
        final Path file;
        final Path target;
        final FileOutputStream out;
        final BufferedOutputStream buffered;
        final CountingStream stream;
        final long creationTime;
        long lastUpdateTime;

        InProgressPart(Path file, Path target, FileOutputStream out, long creationTime, long now, long size) {
            this.file = file;
            this.target = target;
            this.out = out;
            this.buffered = new BufferedOutputStream(out, BUFFER_SIZE);
            this.stream = new CountingStream(buffered, size);
            this.creationTime = creationTime;
            this.lastUpdateTime = now;
        }

        @Override
        public String getBucketId() {
            return bucketId;
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

    /** What the encoder writes to: counts bytes, and ignores close() (the bucket owns the file). */
    private static final class CountingStream extends OutputStream {
        private final OutputStream target;
        long count;

        CountingStream(OutputStream target, long count) {
            this.target = target;
            this.count = count;
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
            // Flushing is the bucket's business; an encoder flushing per record would only cost syscalls.
        }

        @Override
        public void close() {
            // The bucket closes the file when it rolls.
        }
    }
}
