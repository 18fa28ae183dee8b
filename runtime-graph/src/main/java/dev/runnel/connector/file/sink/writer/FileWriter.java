package dev.runnel.connector.file.sink.writer;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.connector.sink2.CommittingSinkWriter;
import dev.runnel.api.connector.sink2.StatefulSinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.connector.file.sink.FileSinkCommittable;
import dev.runnel.core.fs.Path;
import dev.runnel.runtime.timers.ProcessingTimeService;
import dev.runnel.streaming.api.functions.sink.filesystem.BucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.OutputFileConfig;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The writer of one {@code FileSink} subtask: routes each record to its bucket (a directory under the base
 * path, chosen by the {@link BucketAssigner}) and encodes it into that bucket's in-progress part file; rolled
 * parts are pending and become committables at the next checkpoint or at the end of input (see
 * {@link FileWriterBucket} for a part's life).
 *
 * <ul>
 *   <li>{@link #prepareCommit()} (at each checkpoint barrier, and at the end of input) rolls the parts the
 *       policy rolls at checkpoints (all of them at the end of input) and returns every pending part.
 *   <li>{@link #snapshotState} syncs the parts still in progress and records their lengths; buckets that hold
 *       nothing any more are dropped.
 *   <li>Restored from such states, the writer cuts each recorded part back to its recorded length and goes on
 *       writing into it; parts the failed attempt opened after the checkpoint are never referenced again and
 *       stay hidden.
 *   <li>Every bucket check interval (a processing-time timer, when the context has timers) and at each
 *       non-final flush, parts due by time roll.
 *   <li>{@link #close()} without the end of input closes in-progress files under their hidden names.
 * </ul>
 *
 * Task thread only. Owns its buckets' files and streams; the encoder, assigner and policy are shared
 * configuration.
 *
 * @param <IN> the record type
 */
public final class FileWriter<IN> implements StatefulSinkWriter<IN, FileWriterBucketState>,
        CommittingSinkWriter<IN, FileSinkCommittable> {

    private final Path basePath;
    private final java.nio.file.Path baseDirectory;
    private final Encoder<IN> encoder;
    private final BucketAssigner<IN, String> bucketAssigner;
    private final RollingPolicy<IN, String> rollingPolicy;
    private final OutputFileConfig outputFileConfig;
    private final WriterInitContext context;
    private final long bucketCheckInterval;
    private final Map<String, FileWriterBucket<IN>> activeBuckets = new LinkedHashMap<>();
    private final Set<java.nio.file.Path> createdDirectories = new HashSet<>();
    private final BucketerContext bucketerContext = new BucketerContext();
    private ProcessingTimeService.Cancellable bucketCheck;
    private boolean endOfInput;

    /**
     * Creates the base directory if needed, and registers the bucket check timer when the context has timers.
     *
     * @param basePath the directory the buckets go under; not null
     * @param encoder writes each record; not null
     * @param bucketAssigner chooses each record's bucket; not null
     * @param rollingPolicy decides when parts roll; not null
     * @param outputFileConfig the part names; not null
     * @param context the subtask's context, for processing time; not null
     * @param bucketCheckInterval milliseconds between checks for parts to roll by time; positive
     * @throws IOException naming the directory if it cannot be created
     */
    public FileWriter(Path basePath, Encoder<IN> encoder, BucketAssigner<IN, String> bucketAssigner,
            RollingPolicy<IN, String> rollingPolicy, OutputFileConfig outputFileConfig, WriterInitContext context,
            long bucketCheckInterval) throws IOException {
        this.basePath = Objects.requireNonNull(basePath, "basePath");
        this.encoder = Objects.requireNonNull(encoder, "encoder");
        this.bucketAssigner = Objects.requireNonNull(bucketAssigner, "bucketAssigner");
        this.rollingPolicy = Objects.requireNonNull(rollingPolicy, "rollingPolicy");
        this.outputFileConfig = Objects.requireNonNull(outputFileConfig, "outputFileConfig");
        this.context = Objects.requireNonNull(context, "context");
        this.bucketCheckInterval = bucketCheckInterval;
        this.baseDirectory = basePath.toLocalPath();
        createDirectory(baseDirectory);
        ProcessingTimeService timers;
        try {
            timers = context.getProcessingTimeService();
        } catch (UnsupportedOperationException noTimers) {
            timers = null; // hand-made contexts: time is then only checked when the writer is called
        }
        if (timers != null) {
            scheduleBucketCheck(timers, timers.getCurrentProcessingTime() + bucketCheckInterval);
        }
    }

    /**
     * Takes over the buckets of a restored checkpoint (possibly of several old subtasks). Call once, before the
     * first record.
     */
    public void initializeState(Collection<FileWriterBucketState> states) throws IOException {
        long now = context.currentProcessingTime();
        for (FileWriterBucketState state : states) {
            FileWriterBucket<IN> bucket = activeBuckets.get(state.getBucketId());
            if (bucket == null) {
                bucket = newBucket(state.getBucketId(), Paths.get(state.getBucketPath()));
            }
            if (state.hasInProgressFile()) {
                // Only one part per bucket can be in progress; a second one (a rescale merged buckets) is pending.
                bucket.restoreInProgress(state.getInProgressFile(), !bucket.hasInProgress(), now);
            }
        }
    }

    @Override
    public void write(IN element, Context writeContext) throws IOException {
        bucketerContext.writeContext = writeContext;
        String bucketId = bucketAssigner.getBucketId(element, bucketerContext);
        FileWriterBucket<IN> bucket = activeBuckets.get(bucketId);
        if (bucket == null) {
            bucket = newBucket(bucketId, bucketId.isEmpty() ? baseDirectory : baseDirectory.resolve(bucketId));
        }
        bucket.write(element, context.currentProcessingTime());
    }

    /**
     * Pushes buffered bytes to the in-progress files (rolling parts due by time); on the end of input, marks
     * that the next {@link #prepareCommit()} rolls every part.
     */
    @Override
    public void flush(boolean endOfInput) throws IOException {
        if (endOfInput) {
            this.endOfInput = true;
            return;
        }
        long now = context.currentProcessingTime();
        for (FileWriterBucket<IN> bucket : activeBuckets.values()) {
            bucket.onProcessingTime(now);
        }
    }

    @Override
    public Collection<FileSinkCommittable> prepareCommit() throws IOException {
        List<FileSinkCommittable> committables = new ArrayList<>();
        for (FileWriterBucket<IN> bucket : activeBuckets.values()) {
            committables.addAll(bucket.prepareCommit(endOfInput));
        }
        return committables;
    }

    @Override
    public List<FileWriterBucketState> snapshotState(long checkpointId) throws IOException {
        List<FileWriterBucketState> states = new ArrayList<>();
        for (Iterator<FileWriterBucket<IN>> it = activeBuckets.values().iterator(); it.hasNext(); ) {
            FileWriterBucket<IN> bucket = it.next();
            if (!bucket.isActive()) {
                it.remove(); // an idle bucket (an hour that is over) costs nothing until it gets records again
                continue;
            }
            states.add(bucket.snapshotState());
        }
        return states;
    }

    /**
     * Closes the in-progress files, if any, without making them pending: their buffered bytes are written so
     * the hidden files can be inspected, but they keep their in-progress names.
     */
    @Override
    public void close() throws IOException {
        if (bucketCheck != null) {
            bucketCheck.cancel();
            bucketCheck = null;
        }
        IOException failure = null;
        for (FileWriterBucket<IN> bucket : activeBuckets.values()) {
            try {
                bucket.close();
            } catch (IOException e) {
                if (failure == null) {
                    failure = e;
                } else {
                    failure.addSuppressed(e);
                }
            }
        }
        activeBuckets.clear();
        if (failure != null) {
            throw failure;
        }
    }

    private void scheduleBucketCheck(ProcessingTimeService timers, long at) {
        bucketCheck = timers.registerTimer(at, time -> {
            // After the end of input the last prepareCommit has run: a part rolled now would never be committed.
            if (endOfInput || bucketCheck == null) {
                return;
            }
            for (FileWriterBucket<IN> bucket : activeBuckets.values()) {
                bucket.onProcessingTime(time);
            }
            scheduleBucketCheck(timers, time + bucketCheckInterval);
        });
    }

    private FileWriterBucket<IN> newBucket(String bucketId, java.nio.file.Path directory) throws IOException {
        if (createdDirectories.add(directory)) {
            createDirectory(directory);
        }
        FileWriterBucket<IN> bucket = new FileWriterBucket<>(bucketId, directory, encoder, rollingPolicy,
                outputFileConfig);
        activeBuckets.put(bucketId, bucket);
        return bucket;
    }

    private void createDirectory(java.nio.file.Path directory) throws IOException {
        String what = directory.equals(baseDirectory) ? "the output directory " + basePath
                : "the bucket directory " + directory;
        try {
            Files.createDirectories(directory);
        } catch (FileAlreadyExistsException e) {
            throw new IOException("Cannot create " + what + " of the file sink: it exists and is not a directory", e);
        } catch (AccessDeniedException e) {
            throw new IOException("Cannot create " + what + " of the file sink: permission denied on " + e.getFile(), e);
        } catch (IOException e) {
            throw new IOException("Cannot create " + what + " of the file sink: " + e, e);
        }
    }

    /** What the bucket assigner sees of the record being written. */
    private final class BucketerContext implements BucketAssigner.Context {
        Context writeContext;

        @Override
        public long currentProcessingTime() {
            return context.currentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return writeContext == null ? Long.MIN_VALUE : writeContext.currentWatermark();
        }

        @Override
        public Long timestamp() {
            return writeContext == null ? null : writeContext.timestamp();
        }
    }
}
