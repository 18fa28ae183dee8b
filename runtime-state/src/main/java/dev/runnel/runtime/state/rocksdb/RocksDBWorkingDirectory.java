package dev.runnel.runtime.state.rocksdb;

import java.io.File;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.List;
import java.util.UUID;

/**
 * The directory one RocksDB instance lives in: {@code <base>/rocksdb-<operator>-<subtask>-<random>}.
 * The random part keeps two attempts of the same subtask apart; the names are sanitized so an
 * operator identifier can never escape the base directory.
 *
 * <p>Task thread only. {@link #delete()} removes the directory and everything in it; calling it again
 * is harmless.
 */
public final class RocksDBWorkingDirectory {

    /** Longest sanitized operator part, so paths stay well below file-system limits. */
    private static final int MAX_NAME_PART = 64;

    private final Path path;
    private boolean deleted;

    private RocksDBWorkingDirectory(Path path) {
        this.path = path;
    }

    /**
     * Creates the working directory of subtask {@code subtaskIndex} of {@code operatorIdentifier}.
     *
     * @param configuredBase the configured base directory, or empty
     * @param localDirectories the task's local directories (the subtask picks one by index), may be empty
     * @throws IOException naming the path and the reason when the directory cannot be created
     */
    public static RocksDBWorkingDirectory create(
            String configuredBase, List<File> localDirectories, String operatorIdentifier, int subtaskIndex)
            throws IOException {
        Path base = chooseBase(configuredBase, localDirectories, subtaskIndex);
        String name = "rocksdb-" + sanitize(operatorIdentifier) + "-" + subtaskIndex + "-"
                + UUID.randomUUID().toString().substring(0, 8);
        Path dir = base.resolve(name).toAbsolutePath();
        try {
            Files.createDirectories(dir);
        } catch (IOException | UncheckedIOException | SecurityException e) {
            throw new IOException(String.format(
                    "Could not create the RocksDB working directory %s for subtask %s of operator '%s': %s. "
                            + "Point state.backend.rocksdb.localdir (or the task's local directories) at a "
                            + "writable local directory.",
                    dir, subtaskIndex, operatorIdentifier, describe(e)), e);
        }
        return new RocksDBWorkingDirectory(dir);
    }

    static Path chooseBase(String configuredBase, List<File> localDirectories, int subtaskIndex) {
        if (configuredBase != null && !configuredBase.isEmpty()) {
            return Path.of(configuredBase);
        }
        if (!localDirectories.isEmpty()) {
            // Spread subtasks over the disks the task has.
            return localDirectories.get(Math.floorMod(subtaskIndex, localDirectories.size())).toPath();
        }
        return Path.of(System.getProperty("java.io.tmpdir"));
    }

    /** Keeps ASCII letters, digits, dash and underscore; anything else (separators, dots) becomes an underscore. */
    static String sanitize(String name) {
        StringBuilder out = new StringBuilder(Math.min(name.length(), MAX_NAME_PART));
        for (int i = 0; i < name.length() && out.length() < MAX_NAME_PART; i++) {
            char c = name.charAt(i);
            boolean safe = (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9')
                    || c == '-' || c == '_';
            out.append(safe ? c : '_');
        }
        return out.length() == 0 ? "operator" : out.toString();
    }

    private static String describe(Exception e) {
        String kind = e instanceof java.nio.file.FileAlreadyExistsException
                ? "a file that is not a directory is in the way: "
                : e instanceof java.nio.file.AccessDeniedException ? "access denied: " : "";
        return kind + e.getClass().getSimpleName() + ": " + e.getMessage();
    }

    public Path path() {
        return path;
    }

    /**
     * A path next to this directory for the files of snapshot {@code checkpointId} that are handed over in
     * place ({@link RocksDBHandoverMeta}): outside it, so that they outlive this store's close, and in the same
     * base directory, so that the next stores (whose working directories are made there too) can hard-link
     * them. Not created.
     */
    Path handoverPath(long checkpointId) {
        String name = path.getFileName().toString();
        String instance = name.startsWith("rocksdb-") ? name.substring("rocksdb-".length()) : name;
        return path.resolveSibling("rocksdb-handover-" + instance + "-" + checkpointId);
    }

    /** Deletes the directory and its content; a second call does nothing. */
    public void delete() throws IOException {
        if (deleted) {
            return;
        }
        deleted = true;
        deleteTree(path);
    }

    /** Deletes {@code root} and everything under it; nothing there is fine. */
    static void deleteTree(Path root) throws IOException {
        if (!Files.exists(root)) {
            return;
        }
        Files.walkFileTree(root, new SimpleFileVisitor<>() {
            @Override
            public FileVisitResult visitFile(Path file, BasicFileAttributes attrs) throws IOException {
                deleteIfPresent(file);
                return FileVisitResult.CONTINUE;
            }

            @Override
            public FileVisitResult postVisitDirectory(Path dir, IOException exc) throws IOException {
                if (exc != null) {
                    throw exc;
                }
                deleteIfPresent(dir);
                return FileVisitResult.CONTINUE;
            }
        });
    }

    private static void deleteIfPresent(Path p) throws IOException {
        try {
            Files.delete(p);
        } catch (NoSuchFileException ignored) {
            // RocksDB may remove obsolete files while we walk; gone is what we want.
        }
    }

    @Override
    public String toString() {
        return path.toString();
    }
}
