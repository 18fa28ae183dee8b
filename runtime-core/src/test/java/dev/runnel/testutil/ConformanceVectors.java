package dev.runnel.testutil;

import java.io.IOException;
import java.io.InputStream;
import java.net.JarURLConnection;
import java.net.URISyntaxException;
import java.net.URL;
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
import java.util.jar.JarEntry;
import java.util.jar.JarFile;
import java.util.stream.Stream;

/**
 * Reads the conformance vectors Apache Flink 1.20.5 produced. The repository keeps its own copy on the
 * test classpath ({@code runtime-core/src/test/resources/conformance/}, shipped in runtime-core's test jar
 * so other modules read the same files); nothing outside the repository is consulted. A missing file fails
 * loudly, never skips. Every row handed out is counted, so a test can report how many rows it checked.
 */
public final class ConformanceVectors {

    /** The classpath folder that holds the vectors. */
    public static final String RESOURCE_FOLDER = "conformance";

    private static final Map<String, Integer> ROWS_READ = new java.util.concurrent.ConcurrentSkipListMap<>();

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

    /** The names of every {@code .tsv} file among the vectors on the classpath, sorted. */
    public static List<String> files() {
        return listResourceFolder().stream().filter(n -> n.endsWith(".tsv")).sorted().toList();
    }

    /** The names of every file in the vector folder on the classpath (the vectors and their README). */
    public static List<String> allFiles() {
        return listResourceFolder().stream().sorted().toList();
    }

    /** The raw bytes of one vector file from the classpath; fails if it is missing. */
    public static byte[] bytes(String fileName) {
        String resource = RESOURCE_FOLDER + "/" + fileName;
        try (InputStream in = ConformanceVectors.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException("conformance file " + resource + " is not on the test classpath; "
                        + "it belongs in runtime-core/src/test/resources/" + resource);
            }
            return in.readAllBytes();
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read conformance file " + resource, e);
        }
    }

    /** How many data rows each file has handed out so far in this JVM, by file name. */
    public static Map<String, Integer> rowsRead() {
        return Map.copyOf(ROWS_READ);
    }

    /** All data rows of {@code fileName}; fails if it is missing or has no rows. */
    public static List<Row> read(String fileName) {
        String file = RESOURCE_FOLDER + "/" + fileName;
        List<String> lines = new String(bytes(fileName), StandardCharsets.UTF_8).lines().toList();
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
        ROWS_READ.merge(fileName, rows.size(), Integer::sum);
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

    /**
     * Lists the vector folder whether the classpath holds it as a directory (this module's own tests) or
     * inside runtime-core's test jar (other modules' tests).
     */
    private static List<String> listResourceFolder() {
        URL marker = ConformanceVectors.class.getClassLoader().getResource(RESOURCE_FOLDER + "/README.md");
        if (marker == null) {
            throw new IllegalStateException("the conformance vectors are not on the test classpath: expected "
                    + RESOURCE_FOLDER + "/README.md from runtime-core/src/test/resources (or runtime-core's test jar)");
        }
        try {
            if ("file".equals(marker.getProtocol())) {
                try (Stream<Path> list = Files.list(Paths.get(marker.toURI()).getParent())) {
                    return list.map(p -> p.getFileName().toString()).toList();
                }
            }
            if ("jar".equals(marker.getProtocol())) {
                JarURLConnection connection = (JarURLConnection) marker.openConnection();
                connection.setUseCaches(false);
                try (JarFile jar = connection.getJarFile()) {
                    String prefix = RESOURCE_FOLDER + "/";
                    return jar.stream().map(JarEntry::getName)
                            .filter(n -> n.startsWith(prefix) && n.length() > prefix.length() && !n.endsWith("/"))
                            .map(n -> n.substring(prefix.length())).toList();
                }
            }
        } catch (IOException | URISyntaxException e) {
            throw new IllegalStateException("cannot list the conformance vectors at " + marker, e);
        }
        throw new IllegalStateException("cannot list the conformance vectors at " + marker
                + ": neither a folder nor a jar");
    }
}
