package dev.runnel.connector.file.sink;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.connector.sink2.Committer;
import dev.runnel.api.connector.sink2.CommitterInitContext;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.StatefulSinkWriter;
import dev.runnel.api.connector.sink2.SupportsCommitter;
import dev.runnel.api.connector.sink2.SupportsWriterState;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.connector.file.sink.committer.FileCommitter;
import dev.runnel.connector.file.sink.writer.FileWriter;
import dev.runnel.connector.file.sink.writer.FileWriterBucketState;
import dev.runnel.connector.file.sink.writer.FileWriterBucketStateSerializer;
import dev.runnel.core.fs.Path;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.streaming.api.functions.sink.filesystem.BucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.OutputFileConfig;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners.DateTimeBucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import java.io.IOException;
import java.util.Collection;
import java.util.Objects;

/**
 * Writes a stream to part files in buckets under a local base directory, one record at a time through an
 * {@link Encoder} (the row format), exactly once across failures:
 *
 * <pre>{@code
 * FileSink<String> sink = FileSink.forRowFormat(new Path("/data/out"), new SimpleStringEncoder<String>("UTF-8"))
 *         .withBucketAssigner(new DateTimeBucketAssigner<>())        // the default: <base>/yyyy-MM-dd--HH/
 *         .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofMebiBytes(64)).build())
 *         .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
 *         .build();
 * stream.sinkTo(sink);
 * }</pre>
 *
 * <p>Layout as Flink's: {@code <base>/<bucket id>/<prefix>-<uuid>-<n><suffix>}; a part is written under a
 * hidden name {@code .<prefix>-<uuid>-<n><suffix>.inprogress.<uuid>} that readers of the directory skip.
 *
 * <p>Two-phase commit. A part the {@link RollingPolicy} rolls is closed and synced but stays hidden
 * (pending). At each checkpoint barrier the writer hands its pending parts over as {@link FileSinkCommittable}s,
 * which are stored in the checkpoint; when the checkpoint completes, the {@link FileCommitter} renames them
 * atomically to their final names. After a failure the job restores the last completed checkpoint: its
 * committables are committed again (a part already renamed is recognised and left alone), the parts that were
 * in progress at it are cut back to the length it recorded and continued, and whatever the failed attempt
 * wrote after it stays hidden and is never committed. Readers therefore see each record exactly once, in
 * committed parts only.
 *
 * <p>Without checkpointing (the default) nothing is committed until the end of input: a bounded job's parts
 * all become visible when it finishes, an unbounded job's never (as in Flink). A job that fails leaves only
 * hidden files.
 *
 * <p>Differences from Flink's {@code FileSink}: local file systems only, no bulk formats and no compaction;
 * the committer runs in the writer's operator rather than in a separate chained operator.
 *
 * <p>Serializable configuration; each subtask gets a {@link FileWriter} and a {@link FileCommitter}.
 *
 * @param <IN> the record type
 */
public final class FileSink<IN> implements Sink<IN>, SupportsWriterState<IN, FileWriterBucketState>,
        SupportsCommitter<FileSinkCommittable> {

    private static final long serialVersionUID = 1L;

    private final Path basePath;
    private final Encoder<IN> encoder;
    private final BucketAssigner<IN, String> bucketAssigner;
    private final RollingPolicy<IN, String> rollingPolicy;
    private final OutputFileConfig outputFileConfig;
    private final long bucketCheckInterval;

    private FileSink(RowFormatBuilder<IN, ?> builder) {
        this.basePath = builder.basePath;
        this.encoder = builder.encoder;
        this.bucketAssigner = builder.bucketAssigner;
        this.rollingPolicy = builder.rollingPolicy;
        this.outputFileConfig = builder.outputFileConfig;
        this.bucketCheckInterval = builder.bucketCheckInterval;
    }

    /**
     * A builder of a sink that writes to buckets under the directory {@code basePath} with {@code encoder}.
     *
     * @param basePath the output directory (created if missing); not null
     * @param encoder writes one record; not null
     */
    public static <IN> DefaultRowFormatBuilder<IN> forRowFormat(Path basePath, Encoder<IN> encoder) {
        return new DefaultRowFormatBuilder<>(basePath, encoder);
    }

    @Override
    public FileWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return new FileWriter<>(basePath, encoder, bucketAssigner, rollingPolicy, outputFileConfig, context,
                bucketCheckInterval);
    }

    @Override
    public StatefulSinkWriter<IN, FileWriterBucketState> restoreWriter(WriterInitContext context,
            Collection<FileWriterBucketState> recoveredState) throws IOException {
        FileWriter<IN> writer = createWriter(context);
        writer.initializeState(recoveredState);
        return writer;
    }

    @Override
    public SimpleVersionedSerializer<FileWriterBucketState> getWriterStateSerializer() {
        return FileWriterBucketStateSerializer.INSTANCE;
    }

    @Override
    public Committer<FileSinkCommittable> createCommitter(CommitterInitContext context) {
        return new FileCommitter();
    }

    @Override
    public SimpleVersionedSerializer<FileSinkCommittable> getCommittableSerializer() {
        return FileSinkCommittableSerializer.INSTANCE;
    }

    /** The output directory. */
    public Path getBasePath() {
        return basePath;
    }

    @Override
    public String toString() {
        return "FileSink{" + basePath + ", " + bucketAssigner + ", " + rollingPolicy + ", " + outputFileConfig + "}";
    }

    /**
     * Configures a row-format {@link FileSink}. Defaults: {@link DateTimeBucketAssigner} (hourly buckets in the
     * system time zone), {@link DefaultRollingPolicy} with its defaults, {@code OutputFileConfig.builder().build()}
     * and a bucket check every 60 s. Not thread-safe.
     *
     * @param <IN> the record type
     * @param <T> the builder's own type, so that subclasses chain
     */
    public static class RowFormatBuilder<IN, T extends RowFormatBuilder<IN, T>> {
        /** Milliseconds between checks for parts to roll by time, as in Flink. */
        public static final long DEFAULT_BUCKET_CHECK_INTERVAL = 60_000L;

        private final Path basePath;
        private final Encoder<IN> encoder;
        private BucketAssigner<IN, String> bucketAssigner = new DateTimeBucketAssigner<>();
        private RollingPolicy<IN, String> rollingPolicy = DefaultRollingPolicy.builder().build();
        private OutputFileConfig outputFileConfig = OutputFileConfig.builder().build();
        private long bucketCheckInterval = DEFAULT_BUCKET_CHECK_INTERVAL;

        protected RowFormatBuilder(Path basePath, Encoder<IN> encoder) {
            this.basePath = Objects.requireNonNull(basePath, "basePath");
            this.encoder = Objects.requireNonNull(encoder, "encoder");
        }

        @SuppressWarnings("unchecked")
        private T self() {
            return (T) this;
        }

        /** How often, in milliseconds (positive), the writer checks whether parts should roll by time. */
        public T withBucketCheckInterval(long interval) {
            if (interval <= 0) {
                throw new IllegalArgumentException("The bucket check interval must be positive, not " + interval);
            }
            this.bucketCheckInterval = interval;
            return self();
        }

        /** Which bucket (sub-directory) each record goes to; not null. */
        public T withBucketAssigner(BucketAssigner<IN, String> assigner) {
            this.bucketAssigner = Objects.requireNonNull(assigner, "assigner");
            return self();
        }

        /** When parts roll; not null. */
        public T withRollingPolicy(RollingPolicy<IN, String> policy) {
            this.rollingPolicy = Objects.requireNonNull(policy, "policy");
            return self();
        }

        /** The part file names; not null. */
        public T withOutputFileConfig(OutputFileConfig config) {
            this.outputFileConfig = Objects.requireNonNull(config, "config");
            return self();
        }

        public FileSink<IN> build() {
            return new FileSink<>(this);
        }
    }

    /**
     * The builder {@link #forRowFormat} returns.
     *
     * @param <IN> the record type
     */
    public static final class DefaultRowFormatBuilder<IN> extends RowFormatBuilder<IN, DefaultRowFormatBuilder<IN>> {
        private DefaultRowFormatBuilder(Path basePath, Encoder<IN> encoder) {
            super(basePath, encoder);
        }
    }
}
