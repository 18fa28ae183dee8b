package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.runtime.state.storage.StorageFiles;
import java.io.BufferedWriter;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.util.Objects;
import java.util.stream.Stream;

/**
 * The sink of the deprecated {@code DataStream.writeAsText(path)}: writes each record's
 * {@code toString()} and a {@code '\n'} (UTF-8), with the layout of Flink's {@code TextOutputFormat}
 * behind an {@code OutputFormatSinkFunction}: at parallelism 1 {@code path} is the output file; at a
 * higher parallelism it is a directory holding one file per subtask, named {@code 1}, {@code 2}, ...
 * (subtask index + 1).
 *
 * <p>Not fault tolerant, as in Flink: records written before a failure stay, and a restarted job
 * truncates and rewrites its files. {@code DataStream.writeAsText} refuses a path that exists already
 * (Flink's NO_OVERWRITE mode), when it is called; in OVERWRITE mode the sink replaces it when it opens: each
 * subtask truncates its own file, a file or directory in the way of the layout is removed (at parallelism 1
 * by the only subtask; at a higher one a file by whichever subtask comes first), and subtask 0 deletes the
 * numbered files beyond the parallelism that a wider earlier run left. For exactly-once output use a
 * {@code FileSink}.
 *
 * <p>Task thread only; the writer is owned by this instance and closed in {@link #close()}.
 *
 * @param <IN> the record type
 */
public final class TextOutputSinkFunction<IN> extends RichSinkFunction<IN> {

    private static final long serialVersionUID = 1L;

    private final String path;
    private final boolean overwrite;
    private transient BufferedWriter writer;

    public TextOutputSinkFunction(String path) {
        this(path, false);
    }

    /** @param overwrite whether existing output is replaced (Flink's OVERWRITE mode) */
    public TextOutputSinkFunction(String path, boolean overwrite) {
        this.path = Objects.requireNonNull(path, "path");
        this.overwrite = overwrite;
    }

    /** The file subtask {@code index} of {@code parallelism} writes to. */
    static Path fileOf(String path, int index, int parallelism) {
        Path base = Path.of(path.startsWith("file://") ? path.substring("file://".length()) : path);
        return parallelism == 1 ? base : base.resolve(Integer.toString(index + 1));
    }

    @Override
    public void open(OpenContext openContext) throws Exception {
        writer = openWriter(path, getRuntimeContext().getIndexOfThisSubtask(),
                getRuntimeContext().getNumberOfParallelSubtasks(), overwrite);
    }

    /**
     * Opens (truncating) the file subtask {@code index} of {@code parallelism} writes to, first clearing the
     * way in OVERWRITE mode. Subtasks of one sink call this concurrently, in one process or several.
     */
    static BufferedWriter openWriter(String path, int index, int parallelism, boolean overwrite) throws IOException {
        Path file = fileOf(path, index, parallelism);
        if (overwrite) {
            clearTheWay(fileOf(path, 0, 1), index, parallelism);
        }
        for (int attempt = 1; ; attempt++) {
            if (file.getParent() != null) {
                Files.createDirectories(file.getParent());
            }
            try {
                return Files.newBufferedWriter(file, StandardCharsets.UTF_8);
            } catch (NoSuchFileException raced) {
                if (!overwrite || attempt >= Math.max(2, parallelism)) {
                    throw raced;
                }
                // OVERWRITE: another subtask, removing the file in the way, removed the directory this one had just
                // made while still empty; each of the others does that at most once
            }
        }
    }

    /** OVERWRITE: removes what the layout cannot live with; each subtask's own file is truncated when opened. */
    private static void clearTheWay(Path base, int index, int parallelism) throws IOException {
        if (parallelism == 1) {
            if (Files.isDirectory(base)) {
                StorageFiles.deleteRecursively(base);
            }
            return;
        }
        if (Files.isRegularFile(base)) {
            try {
                Files.delete(base);
            } catch (FileSystemException raced) {
                // Another subtask may have been first and made the directory: then the delete finds nothing, a
                // directory with files, or (read as a file, removed as one) EISDIR. Only a file still there is an error.
                if (Files.isRegularFile(base)) {
                    throw raced;
                }
            }
        }
        if (index == 0 && Files.isDirectory(base)) {
            try (Stream<Path> files = Files.list(base)) {
                for (Path p : (Iterable<Path>) files::iterator) {
                    String name = p.getFileName().toString();
                    if (name.matches("[0-9]+") && Long.parseLong(name) > parallelism) {
                        Files.deleteIfExists(p);
                    }
                }
            }
        }
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
