package dev.runnel.connector.file.src.impl;

import dev.runnel.connector.file.src.FileSourceSplit;
import dev.runnel.core.fs.Path;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.nio.file.AccessDeniedException;
import java.nio.file.FileVisitOption;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumSet;
import java.util.List;

/**
 * Lists the files under a source's input paths, one split per file.
 *
 * <ul>
 *   <li>A path naming a file is taken as it is.
 *   <li>A path naming a directory contributes every regular file under it, recursively (following
 *       symbolic links), except hidden ones: files and directories whose name starts with {@code .} or
 *       {@code _} (as in Flink, which skips {@code .crc} files, {@code _SUCCESS} markers and in-progress
 *       files this way). Its files are sorted by path.
 *   <li>A path that does not exist fails with "Input path ... does not exist".
 * </ul>
 *
 * Split ids are the files' positions in the listing ({@code "0"}, {@code "1"}, ...). Stateless; the
 * file system is read on the calling thread (the enumerator's).
 */
public final class FileEnumerator {

    private FileEnumerator() {}

    /**
     * One split per file under {@code paths}, in order: the paths in the order given, each
     * directory's files sorted.
     *
     * @throws IOException naming the path if one does not exist or cannot be listed
     */
    public static List<FileSourceSplit> enumerate(Path... paths) throws IOException {
        List<FileSourceSplit> splits = new ArrayList<>();
        for (Path path : paths) {
            java.nio.file.Path local = path.toLocalPath();
            if (!Files.exists(local)) {
                throw new FileNotFoundException("Input path " + path + " does not exist");
            }
            List<java.nio.file.Path> files = new ArrayList<>();
            if (Files.isDirectory(local)) {
                listDirectory(path, local, files);
                files.sort(Comparator.comparing(java.nio.file.Path::toString));
            } else {
                files.add(local);
            }
            for (java.nio.file.Path file : files) {
                splits.add(new FileSourceSplit(Integer.toString(splits.size()), new Path(file.toString()),
                        0, size(file)));
            }
        }
        return splits;
    }

    /** True for names the listing skips: those starting with '.' or '_'. */
    public static boolean isHidden(String name) {
        return name.startsWith(".") || name.startsWith("_");
    }

    private static void listDirectory(Path input, java.nio.file.Path root, List<java.nio.file.Path> files)
            throws IOException {
        Files.walkFileTree(root, EnumSet.of(FileVisitOption.FOLLOW_LINKS), Integer.MAX_VALUE,
                new SimpleFileVisitor<>() {
                    @Override
                    public FileVisitResult preVisitDirectory(java.nio.file.Path dir, BasicFileAttributes attrs) {
                        return !dir.equals(root) && isHidden(dir.getFileName().toString())
                                ? FileVisitResult.SKIP_SUBTREE : FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFile(java.nio.file.Path file, BasicFileAttributes attrs) {
                        if (attrs.isRegularFile() && !isHidden(file.getFileName().toString())) {
                            files.add(file);
                        }
                        return FileVisitResult.CONTINUE;
                    }

                    @Override
                    public FileVisitResult visitFileFailed(java.nio.file.Path file, IOException e)
                            throws IOException {
                        if (isHidden(file.getFileName() == null ? "" : file.getFileName().toString())
                                && !file.equals(root)) {
                            return FileVisitResult.CONTINUE;
                        }
                        String reason = e instanceof AccessDeniedException ? "permission denied" : e.toString();
                        throw new IOException("Cannot list " + file + " under input path " + input + ": " + reason, e);
                    }
                });
    }

    private static long size(java.nio.file.Path file) throws IOException {
        try {
            return Files.size(file);
        } catch (IOException e) {
            throw new IOException("Cannot read the size of input file " + file + ": " + e, e);
        }
    }
}
