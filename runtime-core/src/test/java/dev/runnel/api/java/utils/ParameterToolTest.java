package dev.runnel.api.java.utils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.assertj.core.api.Assertions.entry;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.configuration.Configuration;
import dev.runnel.util.InstantiationUtil;
import java.io.ByteArrayInputStream;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ParameterToolTest {

    @TempDir
    Path dir;

    @Test
    void argumentsAsFlinksDocumentationShowsThem() {
        ParameterTool params = ParameterTool.fromArgs(new String[] {"--input", "hdfs:///mydata", "--elements", "42"});
        assertThat(params.getRequired("input")).isEqualTo("hdfs:///mydata");
        assertThat(params.get("output", "myDefaultValue")).isEqualTo("myDefaultValue");
        assertThat(params.getLong("expectedCount", -1L)).isEqualTo(-1L);
        assertThat(params.getInt("elements")).isEqualTo(42);
        assertThat(params.getNumberOfParameters()).isEqualTo(2);
    }

    @Test
    void singleAndDoubleDashKeysFlagsAndNegativeNumbers() {
        ParameterTool params = ParameterTool.fromArgs(new String[] {
            "-a", "1", "--verbose", "--offset", "-1", "--ratio", "-0.5", "-exp", "-1e3", "--last"});
        assertThat(params.toMap()).containsOnly(entry("a", "1"), entry("verbose", "__NO_VALUE_KEY"),
                entry("offset", "-1"), entry("ratio", "-0.5"), entry("exp", "-1e3"), entry("last", "__NO_VALUE_KEY"));
        assertThat(params.has("verbose")).isTrue();
        assertThat(params.has("quiet")).isFalse();
        assertThat(params.getInt("offset")).isEqualTo(-1);
        assertThat(params.getDouble("ratio")).isEqualTo(-0.5);
    }

    @Test
    void aKeyFollowedByAKeyHasNoValue() {
        ParameterTool params = ParameterTool.fromArgs(new String[] {"--flag", "-other", "x"});
        assertThat(params.toMap()).containsOnly(entry("flag", "__NO_VALUE_KEY"), entry("other", "x"));
    }

    @Test
    void aRepeatedKeyKeepsItsLastValue() {
        assertThat(ParameterTool.fromArgs(new String[] {"--k", "1", "--k", "2"}).get("k")).isEqualTo("2");
    }

    @Test
    void malformedArgumentsSayWhatIsWrong() {
        assertThatThrownBy(() -> ParameterTool.fromArgs(new String[] {"--a", "1", "stray"}))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("Error parsing arguments '[--a, 1, stray]' on 'stray'. Please prefix keys with -- or -.");
        assertThatThrownBy(() -> ParameterTool.fromArgs(new String[] {"--"}))
                .isExactlyInstanceOf(IllegalArgumentException.class)
                .hasMessage("The input [--] contains an empty argument");
        assertThatThrownBy(() -> ParameterTool.fromArgs(new String[] {"-", "x"}))
                .hasMessage("The input [-, x] contains an empty argument");
    }

    @Test
    void typedGettersWithAndWithoutDefaults() {
        ParameterTool p = ParameterTool.fromArgs(new String[] {
            "--i", "7", "--l", "8000000000", "--f", "1.5", "--d", "2.25", "--b", "TRUE", "--s", "12", "--y", "-3"});
        assertThat(p.getInt("i")).isEqualTo(7);
        assertThat(p.getInt("missing", 5)).isEqualTo(5);
        assertThat(p.getLong("l")).isEqualTo(8_000_000_000L);
        assertThat(p.getLong("missing", 9L)).isEqualTo(9L);
        assertThat(p.getFloat("f")).isEqualTo(1.5f);
        assertThat(p.getFloat("missing", 0.5f)).isEqualTo(0.5f);
        assertThat(p.getDouble("d")).isEqualTo(2.25);
        assertThat(p.getDouble("missing", 0.25)).isEqualTo(0.25);
        assertThat(p.getBoolean("b")).isTrue();
        assertThat(p.getBoolean("missing", true)).isTrue();
        assertThat(p.getShort("s")).isEqualTo((short) 12);
        assertThat(p.getShort("missing", (short) 3)).isEqualTo((short) 3);
        assertThat(p.getByte("y")).isEqualTo((byte) -3);
        assertThat(p.getByte("missing", (byte) 4)).isEqualTo((byte) 4);
    }

    @Test
    void aFlagReadAsBooleanIsFalseAsInFlink() {
        assertThat(ParameterTool.fromArgs(new String[] {"--verbose"}).getBoolean("verbose")).isFalse();
    }

    @Test
    void missingOrMalformedValuesNameTheKey() {
        ParameterTool p = ParameterTool.fromArgs(new String[] {"--count", "many"});
        assertThatThrownBy(() -> p.getRequired("input")).isExactlyInstanceOf(RuntimeException.class)
                .hasMessageStartingWith("No data for required key 'input'");
        assertThatThrownBy(() -> p.getInt("input")).hasMessageStartingWith("No data for required key 'input'");
        assertThatThrownBy(() -> p.getInt("count")).isInstanceOf(NumberFormatException.class)
                .hasMessage("The value 'many' of parameter 'count' is not an int. Pass an int, e.g. --count 42.");
        assertThatThrownBy(() -> p.getLong("count", 1L)).isInstanceOf(NumberFormatException.class)
                .hasMessageStartingWith("The value 'many' of parameter 'count' is not a long.");
    }

    @Test
    void unrequestedParametersAreThoseNoGetterAskedFor() {
        ParameterTool p = ParameterTool.fromArgs(new String[] {"--a", "1", "--b", "2", "--c", "3", "--d", "4"});
        assertThat(p.getUnrequestedParameters()).containsExactlyInAnyOrder("a", "b", "c", "d");
        p.get("a");
        p.has("b");
        p.getInt("c", 0);
        p.toMap();
        assertThat(p.getUnrequestedParameters()).containsExactly("d");
    }

    @Test
    void propertiesFileByPathFileAndStream() throws Exception {
        Path file = dir.resolve("job.properties");
        Files.writeString(file, "input=/data\n# a comment\nelements = 42\n");
        assertThat(ParameterTool.fromPropertiesFile(file.toString()).toMap())
                .containsOnly(entry("input", "/data"), entry("elements", "42"));
        assertThat(ParameterTool.fromPropertiesFile(file.toFile()).getInt("elements")).isEqualTo(42);
        try (InputStream in = new FileInputStream(file.toFile())) {
            assertThat(ParameterTool.fromPropertiesFile(in).get("input")).isEqualTo("/data");
        }
        File missing = dir.resolve("missing.properties").toFile();
        assertThatThrownBy(() -> ParameterTool.fromPropertiesFile(missing))
                .isExactlyInstanceOf(FileNotFoundException.class)
                .hasMessage("Properties file " + missing.getAbsolutePath() + " does not exist");
    }

    @Test
    void fromMapCopiesAndRejectsNull() {
        Map<String, String> source = new java.util.HashMap<>(Map.of("k", "v"));
        ParameterTool p = ParameterTool.fromMap(source);
        source.put("k", "changed");
        assertThat(p.get("k")).isEqualTo("v");
        assertThatThrownBy(() -> p.toMap().put("x", "y")).isInstanceOf(UnsupportedOperationException.class);
        assertThatThrownBy(() -> ParameterTool.fromMap(null)).isExactlyInstanceOf(NullPointerException.class)
                .hasMessage("Unable to initialize from empty map");
    }

    @Test
    void systemProperties() {
        System.setProperty("runnel.test.parameter", "from-jvm");
        try {
            assertThat(ParameterTool.fromSystemProperties().get("runnel.test.parameter")).isEqualTo("from-jvm");
        } finally {
            System.clearProperty("runnel.test.parameter");
        }
    }

    @Test
    void mergeWithPrefersTheOtherAndKeepsWhatWasRequested() {
        ParameterTool left = ParameterTool.fromArgs(new String[] {"--a", "1", "--b", "2"});
        ParameterTool right = ParameterTool.fromArgs(new String[] {"--b", "3", "--c", "4"});
        left.get("a");
        right.get("c");
        ParameterTool merged = left.mergeWith(right);
        assertThat(merged.toMap()).containsOnly(entry("a", "1"), entry("b", "3"), entry("c", "4"));
        assertThat(merged.getUnrequestedParameters()).containsExactly("b");
    }

    @Test
    void exportsToPropertiesAndConfiguration() {
        ParameterTool p = ParameterTool.fromArgs(new String[] {"--state.backend", "rocksdb", "--n", "3"});
        Properties properties = p.getProperties();
        assertThat(properties).containsOnly(entry("state.backend", "rocksdb"), entry("n", "3"));
        Configuration configuration = p.getConfiguration();
        assertThat(configuration.toMap()).containsOnly(entry("state.backend", "rocksdb"), entry("n", "3"));
    }

    @Test
    void createPropertiesFileWritesTheKeysAskedForWithTheirDefaults() throws Exception {
        ParameterTool p = ParameterTool.fromArgs(new String[] {"--input", "/data"});
        p.getRequired("input");
        p.getInt("parallelism", 4);
        p.get("output");
        p.get("output", "/out");
        Path file = dir.resolve("defaults.properties");
        p.createPropertiesFile(file.toString());
        Properties written = new Properties();
        written.load(new ByteArrayInputStream(Files.readAllBytes(file)));
        assertThat(written).containsOnly(entry("input", "<undefined>"), entry("parallelism", "4"),
                entry("output", "/out"));
        assertThat(Files.readString(file, StandardCharsets.ISO_8859_1))
                .startsWith("#Default file created by Runnel's ParameterTool.createPropertiesFile()");
        assertThatThrownBy(() -> p.createPropertiesFile(file.toString(), false))
                .isExactlyInstanceOf(RuntimeException.class)
                .hasMessageStartingWith("File " + file + " exists and overwriting is not allowed");
    }

    @Test
    void isGlobalJobParametersAndSurvivesShippingWithoutItsBookkeeping() {
        ParameterTool p = ParameterTool.fromArgs(new String[] {"--a", "1", "--b", "2"});
        p.get("a");
        ExecutionConfig config = new ExecutionConfig();
        config.setGlobalJobParameters(p);
        ExecutionConfig shipped = InstantiationUtil.clone(config, "execution config");
        ParameterTool received = (ParameterTool) shipped.getGlobalJobParameters();
        assertThat(received).isNotSameAs(p).isEqualTo(p);
        assertThat(received.getRequired("b")).isEqualTo("2");
        assertThat(received.getUnrequestedParameters()).isEmpty();
        assertThat(p.getUnrequestedParameters()).containsExactly("b");
    }

    @Test
    void flagsDetectNumbersLikeCommonsLang() {
        for (String number : new String[] {"-1", "1", "-1.5", ".5", "-.5", "1e10", "-1E-3", "0x1F", "-0x1f", "10L", "2.5f"}) {
            assertThat(AbstractParameterTool.isNumber(number)).as(number).isTrue();
        }
        for (String notNumber : new String[] {"-", "-a", "--1a", "1.2.3", "e5", "-x1", ""}) {
            assertThat(AbstractParameterTool.isNumber(notNumber)).as(notNumber).isFalse();
        }
    }
}
