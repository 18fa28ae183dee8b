package dev.runnel.configuration;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * The configuration file of an installation, as Flink's {@code GlobalConfiguration}: {@code runnel.yaml} in
 * the folder named by {@code RUNNEL_CONF_DIR} (or given explicitly), or, where that file does not exist,
 * {@code config.yaml} (Flink's name, so a Flink configuration folder works). The file holds flat {@code key: value}
 * lines (Flink's flat form); {@code #} starts a comment; values may be quoted. A malformed line fails naming
 * the file and the line. Stateless.
 */
public final class GlobalConfiguration {

    /** The environment variable that names the configuration folder. */
    public static final String ENV_CONF_DIR = "RUNNEL_CONF_DIR";

    /** The file read in that folder. */
    public static final String FILE_NAME = "runnel.yaml";

    /** The file read when {@link #FILE_NAME} does not exist: Flink's name. */
    public static final String FLINK_FILE_NAME = "config.yaml";

    private GlobalConfiguration() {}

    /** The configuration of {@code $RUNNEL_CONF_DIR/runnel.yaml} (or config.yaml); empty when the variable is unset. */
    public static Configuration loadConfiguration() {
        String dir = System.getenv(ENV_CONF_DIR);
        return dir == null || dir.isBlank() ? new Configuration() : loadConfiguration(dir);
    }

    /**
     * The configuration of {@code configDir/runnel.yaml}, or of {@code configDir/config.yaml} when there is no
     * runnel.yaml; fails if neither exists or the file read is malformed.
     */
    public static Configuration loadConfiguration(String configDir) {
        Path file = configurationFile(Path.of(configDir));
        List<String> lines;
        try {
            lines = Files.readAllLines(file, StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException("Cannot read the configuration file " + file + " (" + ENV_CONF_DIR + "="
                    + configDir + "): " + e.getMessage(), e);
        }
        Configuration configuration = new Configuration();
        for (int i = 0; i < lines.size(); i++) {
            String line = stripComment(lines.get(i)).strip();
            if (line.isEmpty()) {
                continue;
            }
            int colon = line.indexOf(": ");
            if (colon <= 0 && line.endsWith(":")) {
                colon = line.length() - 1;
            }
            if (colon <= 0) {
                throw new IllegalArgumentException(file + " line " + (i + 1) + ": expected 'key: value', found '"
                        + lines.get(i).strip() + "'");
            }
            configuration.setString(line.substring(0, colon).strip(), unquote(line.substring(colon + 1).strip()));
        }
        return configuration;
    }

    /** runnel.yaml when it exists, else config.yaml when that exists, else runnel.yaml (to be named as missing). */
    private static Path configurationFile(Path configDir) {
        Path runnel = configDir.resolve(FILE_NAME);
        Path flink = configDir.resolve(FLINK_FILE_NAME);
        return !Files.exists(runnel) && Files.exists(flink) ? flink : runnel;
    }

    private static String stripComment(String line) {
        boolean quoted = false;
        char quote = 0;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                quoted = c != quote;
            } else if (c == '"' || c == '\'') {
                quoted = true;
                quote = c;
            } else if (c == '#' && (i == 0 || Character.isWhitespace(line.charAt(i - 1)))) {
                return line.substring(0, i);
            }
        }
        return line;
    }

    private static String unquote(String value) {
        if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                || value.startsWith("'") && value.endsWith("'"))) {
            return value.substring(1, value.length() - 1);
        }
        return value;
    }
}
