package dev.runnel.connector.file.sink;

import dev.runnel.api.common.serialization.Encoder;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.connector.file.sink.rollingpolicies.DefaultRollingPolicy;
import dev.runnel.connector.file.sink.writer.FileWriter;
import dev.runnel.core.fs.Path;
import java.io.IOException;
import java.util.Objects;

/**
 * Writes a stream to rolling part files in a local directory, one record at a time through an
 * {@link Encoder} (the row format):
 *
 * <pre>{@code
 * FileSink<String> sink = FileSink.forRowFormat(new Path("/data/out"), new SimpleStringEncoder<String>("UTF-8"))
 *         .withRollingPolicy(DefaultRollingPolicy.builder().withMaxPartSize(MemorySize.ofMebiBytes(64)).build())
 *         .withOutputFileConfig(OutputFileConfig.builder().withPartPrefix("part").withPartSuffix(".txt").build())
 *         .build();
 * stream.sinkTo(sink);
 * }</pre>
 *
 * <p>Each subtask writes its own parts, {@code <prefix>-<subtask>-<n><suffix>}. A part is written under
 * a hidden in-progress name and renamed to its final name when the {@link RollingPolicy} rolls it or
 * the input ends; a failed or cancelled job leaves its in-progress files hidden and never renames
 * them (see {@link FileWriter}). Final files therefore hold whole records only.
 *
 * <p>Differences from Flink's {@code FileSink}: one bucket (the base directory; no bucket assigner),
 * no bulk formats, no compaction, and no exactly-once commit across restarts (parts roll at the
 * policy's thresholds and at the end of input, not at checkpoints). The output directory is created
 * when the writers start; if it cannot be, the job fails naming it.
 *
 * <p>Serializable configuration; each subtask gets a {@link FileWriter}.
 *
 * @param <IN> the record type
 */
public final class FileSink<IN> implements Sink<IN> {

    private static final long serialVersionUID = 1L;

    private final Path basePath;
    private final Encoder<IN> encoder;
    private final RollingPolicy<IN> rollingPolicy;
    private final OutputFileConfig outputFileConfig;

    private FileSink(Path basePath, Encoder<IN> encoder, RollingPolicy<IN> rollingPolicy,
            OutputFileConfig outputFileConfig) {
        this.basePath = basePath;
        this.encoder = encoder;
        this.rollingPolicy = rollingPolicy;
        this.outputFileConfig = outputFileConfig;
    }

    /**
     * A builder of a sink that writes to the directory {@code basePath} with {@code encoder}.
     *
     * @param basePath the output directory (created if missing); not null
     * @param encoder writes one record; not null
     */
    public static <IN> DefaultRowFormatBuilder<IN> forRowFormat(Path basePath, Encoder<IN> encoder) {
        return new DefaultRowFormatBuilder<>(basePath, encoder);
    }

    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) throws IOException {
        return new FileWriter<>(basePath, encoder, rollingPolicy, outputFileConfig, context);
    }

    /** The output directory. */
    public Path getBasePath() {
        return basePath;
    }

    @Override
    public String toString() {
        return "FileSink{" + basePath + ", " + rollingPolicy + ", " + outputFileConfig + "}";
    }

    /**
     * Configures a row-format {@link FileSink}. Defaults: {@link DefaultRollingPolicy} with its defaults,
     * and {@code OutputFileConfig.builder().build()}. Not thread-safe.
     *
     * @param <IN> the record type
     */
    public static final class DefaultRowFormatBuilder<IN> {
        private final Path basePath;
        private final Encoder<IN> encoder;
        private RollingPolicy<IN> rollingPolicy = DefaultRollingPolicy.builder().build();
        private OutputFileConfig outputFileConfig = OutputFileConfig.builder().build();

        private DefaultRowFormatBuilder(Path basePath, Encoder<IN> encoder) {
            this.basePath = Objects.requireNonNull(basePath, "basePath");
            this.encoder = Objects.requireNonNull(encoder, "encoder");
        }

        /** When parts roll; not null. */
        public DefaultRowFormatBuilder<IN> withRollingPolicy(RollingPolicy<IN> policy) {
            this.rollingPolicy = Objects.requireNonNull(policy, "policy");
            return this;
        }

        /** The part file names; not null. */
        public DefaultRowFormatBuilder<IN> withOutputFileConfig(OutputFileConfig config) {
            this.outputFileConfig = Objects.requireNonNull(config, "config");
            return this;
        }

        public FileSink<IN> build() {
            return new FileSink<>(basePath, encoder, rollingPolicy, outputFileConfig);
        }
    }
}
