package dev.runnel.connector.file.src;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.connector.file.src.impl.ContinuousFileSplitEnumerator;
import dev.runnel.connector.file.src.impl.FileEnumerator;
import dev.runnel.connector.file.src.impl.FileSourceReader;
import dev.runnel.connector.file.src.impl.StaticFileSplitEnumerator;
import dev.runnel.connector.file.src.reader.StreamFormat;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.core.io.SimpleVersionedSerializer;
import java.time.Duration;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.Objects;

/**
 * A bounded source of the records in local files: each input path is a file or a directory (all its
 * non-hidden regular files, recursively; see {@link FileEnumerator}), each file is one split, read
 * whole by one reader, and splits go to readers as they ask for them.
 *
 * <pre>{@code
 * FileSource<String> source =
 *         FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path("/data/in")).build();
 * DataStream<String> lines = env.fromSource(source, WatermarkStrategy.noWatermarks(), "Lines");
 * }</pre>
 *
 * <p>The files are listed once, when the enumerator starts: a missing input path fails the job then,
 * with "Input path ... does not exist"; a directory without files yields an empty stream; a file that
 * cannot be read fails the job naming the file. A file is never split between readers. With
 * {@link FileSourceBuilder#monitorContinuously(Duration)} the paths are listed again every interval
 * and new files are read as they appear; the source is then unbounded
 * ({@link ContinuousFileSplitEnumerator}).
 *
 * <p>Checkpoints record each file's byte offset ({@link FileSourceSplit#offset()}).
 *
 * <p>Serializable configuration; thread-safe.
 *
 * @param <T> the record type
 */
public final class FileSource<T> implements Source<T, FileSourceSplit, Collection<FileSourceSplit>>,
        ResultTypeQueryable<T> {

    private static final long serialVersionUID = 1L;

    private final Path[] inputPaths;
    private final StreamFormat<T> format;
    /** The discovery interval in ms when the paths are watched for new files; 0 when they are listed once. */
    private final long discoveryIntervalMillis;

    private FileSource(Path[] inputPaths, StreamFormat<T> format, long discoveryIntervalMillis) {
        this.inputPaths = inputPaths;
        this.format = format;
        this.discoveryIntervalMillis = discoveryIntervalMillis;
    }

    /**
     * A builder of a source that reads {@code paths} with {@code format}, e.g. a
     * {@link TextLineInputFormat}.
     *
     * @param format reads the records of one file; not null
     * @param paths files or directories; at least one, none null
     */
    public static <T> FileSourceBuilder<T> forRecordStreamFormat(StreamFormat<T> format, Path... paths) {
        return new FileSourceBuilder<>(format, paths);
    }

    /** The input paths, as given. */
    public Path[] getInputPaths() {
        return inputPaths.clone();
    }

    @Override
    public TypeInformation<T> getProducedType() {
        return format.getProducedType();
    }

    @Override
    public Boundedness getBoundedness() {
        return discoveryIntervalMillis > 0 ? Boundedness.CONTINUOUS_UNBOUNDED : Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<T, FileSourceSplit> createReader(SourceReaderContext readerContext) {
        return new FileSourceReader<>(readerContext, format);
    }

    @Override
    public SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> createEnumerator(
            SplitEnumeratorContext<FileSourceSplit> enumContext) {
        return discoveryIntervalMillis > 0
                ? new ContinuousFileSplitEnumerator(enumContext, inputPaths, discoveryIntervalMillis, List.of())
                : new StaticFileSplitEnumerator(enumContext, inputPaths);
    }

    @Override
    public SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> restoreEnumerator(
            SplitEnumeratorContext<FileSourceSplit> enumContext, Collection<FileSourceSplit> checkpoint) {
        return discoveryIntervalMillis > 0
                ? new ContinuousFileSplitEnumerator(enumContext, inputPaths, discoveryIntervalMillis, checkpoint)
                : new StaticFileSplitEnumerator(enumContext, checkpoint);
    }

    @Override
    public SimpleVersionedSerializer<FileSourceSplit> getSplitSerializer() {
        return FileSourceSplitSerializer.INSTANCE;
    }

    @Override
    public SimpleVersionedSerializer<Collection<FileSourceSplit>> getEnumeratorCheckpointSerializer() {
        return FileSourceSplitSerializer.pendingSplitsSerializer();
    }

    @Override
    public String toString() {
        return "FileSource" + Arrays.toString(inputPaths);
    }

    /**
     * Configures a {@link FileSource}: bounded (the default, {@link #processStaticFileSet()}) or
     * watching its paths for new files ({@link #monitorContinuously(Duration)}). Flink's split
     * assigners and file enumerator choices are not supported. Not thread-safe; use it on one thread.
     *
     * @param <T> the record type
     */
    public static final class FileSourceBuilder<T> {

        private final StreamFormat<T> format;
        private final Path[] paths;
        private long discoveryIntervalMillis;

        private FileSourceBuilder(StreamFormat<T> format, Path[] paths) {
            this.format = Objects.requireNonNull(format, "format");
            Objects.requireNonNull(paths, "paths");
            if (paths.length == 0) {
                throw new IllegalArgumentException("A file source needs at least one input path");
            }
            for (Path path : paths) {
                Objects.requireNonNull(path, "an input path is null");
            }
            this.paths = paths.clone();
        }

        /**
         * Makes the source unbounded: it lists the paths when it starts and again every
         * {@code discoveryInterval}, and reads each new file once (by path; data appended to a file
         * already read is not read). As in Flink, the source then never ends.
         *
         * @throws IllegalArgumentException if the interval is not at least one millisecond
         */
        public FileSourceBuilder<T> monitorContinuously(Duration discoveryInterval) {
            Objects.requireNonNull(discoveryInterval, "discoveryInterval");
            if (discoveryInterval.toMillis() < 1) {
                throw new IllegalArgumentException("monitorContinuously needs a discovery interval of at least 1 ms, not "
                        + discoveryInterval);
            }
            this.discoveryIntervalMillis = discoveryInterval.toMillis();
            return this;
        }

        /** Makes the source bounded again (the default): the paths are listed once and read. */
        public FileSourceBuilder<T> processStaticFileSet() {
            this.discoveryIntervalMillis = 0;
            return this;
        }

        /** The source; the paths are checked when the job runs, not here. */
        public FileSource<T> build() {
            return new FileSource<>(paths, format, discoveryIntervalMillis);
        }
    }
}
