package dev.runnel.connector.file.sink;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/** What a reader of a file sink's output sees: visible (committed) files and hidden ones, under a directory. */
final class SinkFiles {

    private SinkFiles() {}

    /** Files whose name does not start with '.', in bucket order and, within a part name's stem, by counter. */
    static List<Path> visible(Path dir) throws IOException {
        return all(dir).stream().filter(p -> !name(p).startsWith(".")).collect(Collectors.toList());
    }

    static List<Path> hidden(Path dir) throws IOException {
        return all(dir).stream().filter(p -> name(p).startsWith(".")).collect(Collectors.toList());
    }

    /** The contents of the visible files, in {@link #visible} order. */
    static List<String> visibleContents(Path dir) throws IOException {
        return visible(dir).stream().map(p -> {
            try {
                return Files.readString(p);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }).collect(Collectors.toList());
    }

    static String name(Path p) {
        return p.getFileName().toString();
    }

    private static List<Path> all(Path dir) throws IOException {
        if (!Files.exists(dir)) {
            return List.of();
        }
        try (Stream<Path> files = Files.walk(dir)) {
            // part-<uuid>-10 after part-<uuid>-9: shorter names first, then by name
            return files.filter(Files::isRegularFile).sorted(Comparator.comparing((Path p) -> p.getParent().toString())
                    .thenComparing(p -> name(p).length()).thenComparing(SinkFiles::name)).collect(Collectors.toList());
        }
    }
}
