package dev.runnel.testutil;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;

/**
 * Reads the conformance vectors Apache Flink produced, from {@code ../shared/conformance/} next to the
 * repository root (see {@link #directory()} for how the folder is found); a missing folder or file fails
 * loudly, never skips.
 */
public final class ConformanceVectors {

    private ConformanceVectors() {}

    /** One data row: column name to raw text value. */
    public record Row(int lineNumber, Map<String, String> values) {

        public String get(String column) {
            String value = values.get(column);
            if (value == null) {
                throw new IllegalArgumentException("no column '" + column + "' in row " + lineNumber + ": " + values);
            }
            return value;
        }

        public int getInt(String column) {
            return Integer.parseInt(get(column));
        }

        public boolean getBoolean(String column) {
            return Boolean.parseBoolean(get(column));
        }

        /** Whether the column holds {@code -} (not applicable). */
        public boolean isAbsent(String column) {
            return "-".equals(get(column));
        }

        /** Parses {@code [a,b,c]}. */
        public int[] getIntList(String column) {
            return parseIntList(get(column));
        }

        /** Parses {@code [[0,1],[],[2]]}. */
        public int[][] getIntListList(String column) {
            String text = get(column);
            if (!text.startsWith("[") || !text.endsWith("]")) {
                throw new IllegalArgumentException("not a list of lists: " + text);
            }
            String inner = text.substring(1, text.length() - 1);
            List<int[]> lists = new ArrayList<>();
            int i = 0;
            while (i < inner.length()) {
                int close = inner.indexOf(']', i);
                lists.add(parseIntList(inner.substring(i, close + 1)));
                i = close + 2; // skip "],"
            }
            return lists.toArray(new int[0][]);
        }

        @Override
        public String toString() {
            return "line " + lineNumber + " " + values;
        }
    }

    /**
     * The conformance folder; fails if it does not exist. {@code RUNNEL_SHARED_DIR} (set by {@code .ci/run})
     * names the shared folder outright; otherwise the first {@code shared/conformance} found beside the
     * repository root or in a folder above it is used.
     */
    public static Path directory() {
        String explicit = System.getenv("RUNNEL_SHARED_DIR");
        if (explicit != null && !explicit.isBlank()) {
            Path dir = Paths.get(explicit).resolve("conformance").toAbsolutePath().normalize();
            if (!Files.isDirectory(dir)) {
                throw new IllegalStateException("RUNNEL_SHARED_DIR=" + explicit + " has no conformance/ folder ("
                        + dir + "); point it at the shared folder that holds the Flink conformance vectors.");
            }
            return dir;
        }
        Path root = repositoryRoot();
        for (Path p = root.getParent(); p != null; p = p.getParent()) {
            Path dir = p.resolve("shared").resolve("conformance");
            if (Files.isDirectory(dir)) {
                return dir;
            }
        }
        throw new IllegalStateException("Conformance vectors not found: no shared/conformance beside the repository "
                + root + " or in any folder above it. They must sit in ../shared/conformance next to the repository "
                + "(or set RUNNEL_SHARED_DIR); the conformance tests cannot pass without them.");
    }

    /** The names of every {@code .tsv} file in the conformance folder. */
    public static List<String> files() {
        try (Stream<Path> list = Files.list(directory())) {
            return list.map(p -> p.getFileName().toString()).filter(n -> n.endsWith(".tsv")).sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** All data rows of {@code fileName}; fails if it is missing or has no rows. */
    public static List<Row> read(String fileName) {
        Path file = directory().resolve(fileName);
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read conformance file " + file, e);
        }
        if (lines.size() < 2) {
            throw new IllegalStateException("conformance file " + file + " has no data rows");
        }
        String[] header = lines.get(0).split("\t", -1);
        List<Row> rows = new ArrayList<>(lines.size() - 1);
        for (int i = 1; i < lines.size(); i++) {
            String line = lines.get(i);
            if (line.isEmpty()) {
                continue;
            }
            String[] cells = line.split("\t", -1);
            if (cells.length != header.length) {
                throw new IllegalStateException(file + " line " + (i + 1) + " has " + cells.length
                        + " cells, header has " + header.length + ": " + Arrays.toString(cells));
            }
            Map<String, String> values = new LinkedHashMap<>();
            for (int c = 0; c < header.length; c++) {
                values.put(header[c], cells[c]);
            }
            rows.add(new Row(i + 1, values));
        }
        return rows;
    }

    /** Parses {@code [a,b,c]} into ints. */
    public static int[] parseIntList(String text) {
        if (!text.startsWith("[") || !text.endsWith("]")) {
            throw new IllegalArgumentException("not a list: " + text);
        }
        String inner = text.substring(1, text.length() - 1);
        if (inner.isEmpty()) {
            return new int[0];
        }
        return Arrays.stream(inner.split(",")).mapToInt(Integer::parseInt).toArray();
    }

    /** Formats ints as {@code [a,b,c]}, the vectors' notation. */
    public static String formatIntList(int[] values) {
        StringBuilder sb = new StringBuilder("[");
        for (int i = 0; i < values.length; i++) {
            if (i > 0) {
                sb.append(',');
            }
            sb.append(values[i]);
        }
        return sb.append(']').toString();
    }

    private static Path repositoryRoot() {
        String property = System.getProperty("runnel.root");
        if (property != null && !property.isBlank() && !property.contains("${")) {
            return Paths.get(property).toAbsolutePath().normalize();
        }
        Path dir = Paths.get("").toAbsolutePath();
        for (Path p = dir; p != null; p = p.getParent()) {
            if (Files.isDirectory(p.resolve("runtime-core")) && Files.isRegularFile(p.resolve("pom.xml"))) {
                return p;
            }
        }
        throw new IllegalStateException("Cannot find the repository root (a folder holding pom.xml and runtime-core) "
                + "above " + dir + "; set -Drunnel.root=<path>");
    }
}
