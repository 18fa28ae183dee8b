package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.OpenContext;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Objects;

/**
 * The sink of the deprecated {@code DataStream.writeAsText(path)}: writes each record's
 * {@code toString()} and a {@code '\n'} (UTF-8), with the layout of Flink's {@code TextOutputFormat}
 * behind an {@code OutputFormatSinkFunction}: at parallelism 1 {@code path} is the output file; at a
 * higher parallelism it is a directory holding one file per subtask, named {@code 1}, {@code 2}, ...
 * (subtask index + 1).
 *
 * <p>Not fault tolerant, as in Flink: records written before a failure stay, and a restarted job
 * truncates and rewrites its files. {@code DataStream.writeAsText} refuses a path that exists already
 * (Flink's NO_OVERWRITE mode), when it is called. For exactly-once output use a {@code FileSink}.
 *
 * <p>Task thread only; the writer is owned by this instance and closed in {@link #close()}.
 *
 * @param <IN> the record type
 */
public final class TextOutputSinkFunction<IN> extends RichSinkFunction<IN> {

    private static final long serialVersionUID = 1L;

    private final String path;
    private transient BufferedWriter writer;

    public TextOutputSinkFunction(String path) {
        this.path = Objects.requireNonNull(path, "path");
    }

    /** The file subtask {@code index} of {@code parallelism} writes to. */
    static Path fileOf(String path, int index, int parallelism) {
        Path base = Path.of(path.startsWith("file://") ? path.substring("file://".length()) : path);
        return parallelism == 1 ? base : base.resolve(Integer.toString(index + 1));
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        Path file = fileOf(path, getRuntimeContext().getIndexOfThisSubtask(),
                getRuntimeContext().getNumberOfParallelSubtasks());
        if (file.getParent() != null) {
            Files.createDirectories(file.getParent());
        }
        writer = Files.newBufferedWriter(file, StandardCharsets.UTF_8);
    }

    @Override
    public void invoke(IN value, Context context) throws IOException {
        writer.write(String.valueOf(value));
        writer.write('\n');
    }

    @Override
    public void finish() throws IOException {
        writer.flush();
    }

    @Override
    public void close() throws IOException {
        if (writer != null) {
            writer.close();
            writer = null;
        }
    }
}
