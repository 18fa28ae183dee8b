package dev.runnel.api.java.utils;

import dev.runnel.configuration.Configuration;
import dev.runnel.util.Preconditions;
import java.io.File;
import java.io.FileInputStream;
import java.io.FileNotFoundException;
import java.io.FileOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Properties;
import java.util.Set;

/**
 * Reads a program's parameters from its arguments, a properties file, a map or the system
 * properties, with Flink's API and parsing rules, and ships them to every function as the job's
 * global parameters:
 *
 * <pre>{@code
 * ParameterTool params = ParameterTool.fromArgs(args);   // --input /data --elements 42 --verbose
 * String input = params.getRequired("input");
 * int elements = params.getInt("elements", 10);
 * env.getConfig().setGlobalJobParameters(params);
 * // in a rich function:
 * ParameterTool p = (ParameterTool) getRuntimeContext().getExecutionConfig().getGlobalJobParameters();
 * }</pre>
 *
 * <p>Arguments are keys with {@code --} or {@code -}, each followed by its value unless the next
 * argument is another key: {@code --verbose --input x} gives {@code verbose} the value
 * {@link #NO_VALUE_KEY}. A negative number is a value, not a key ({@code --offset -1}). A repeated
 * key keeps its last value (use {@link MultipleParameterTool} to keep them all).
 *
 * <p>The values are immutable; the request bookkeeping (see {@link AbstractParameterTool}) is
 * thread-safe and not shipped.
 */
public class ParameterTool extends AbstractParameterTool {

    private static final long serialVersionUID = 1L;

    /** The parameters; unmodifiable. */
    protected final Map<String, String> data;

    private ParameterTool(Map<String, String> data) {
        this.data = Collections.unmodifiableMap(new HashMap<>(data));
        unrequestedParameters.addAll(this.data.keySet());
    }

    // ------------------------------------------------------------------ factories

    /**
     * Parses {@code --key value} / {@code -key value} pairs; see the class comment for the rules.
     *
     * @throws IllegalArgumentException if an argument where a key belongs has no {@code -} prefix, or a
     *     key is empty
     */
    public static ParameterTool fromArgs(String[] args) {
        Preconditions.checkNotNull(args, "args must not be null");
        Map<String, String> map = new HashMap<>(args.length / 2 + 1);
        int i = 0;
        while (i < args.length) {
            String key = keyFromArgs(args, i++);
            if (i < args.length && isValueArgument(args[i])) {
                map.put(key, args[i++]);
            } else {
                map.put(key, NO_VALUE_KEY);
            }
        }
        return fromMap(map);
    }

    /**
     * The entries of the properties file at {@code path}.
     *
     * @throws FileNotFoundException if there is no such file
     */
    public static ParameterTool fromPropertiesFile(String path) throws IOException {
        return fromPropertiesFile(new File(path));
    }

    /**
     * The entries of the properties file {@code file}.
     *
     * @throws FileNotFoundException if there is no such file
     */
    public static ParameterTool fromPropertiesFile(File file) throws IOException {
        if (!file.exists()) {
            throw new FileNotFoundException("Properties file " + file.getAbsolutePath() + " does not exist");
        }
        try (InputStream in = new FileInputStream(file)) {
            return fromPropertiesFile(in);
        }
    }

    /** The entries of a properties file read from {@code inputStream} (left open). */
    public static ParameterTool fromPropertiesFile(InputStream inputStream) throws IOException {
        Properties properties = new Properties();
        properties.load(inputStream);
        return fromProperties(properties);
    }

    /** The entries of {@code map}, copied. */
    public static ParameterTool fromMap(Map<String, String> map) {
        Preconditions.checkNotNull(map, "Unable to initialize from empty map");
        return new ParameterTool(map);
    }

    /** The JVM's system properties, e.g. those given as {@code -Dinput=/data}. */
    public static ParameterTool fromSystemProperties() {
        return fromProperties(System.getProperties());
    }

    private static ParameterTool fromProperties(Properties properties) {
        Map<String, String> map = new HashMap<>();
        for (String name : properties.stringPropertyNames()) {
            map.put(name, properties.getProperty(name));
        }
        return fromMap(map);
    }

    // ------------------------------------------------------------------ reading

    @Override
    public int getNumberOfParameters() {
        return data.size();
    }

    @Override
    public String get(String key) {
        addToDefaults(key, null);
        unrequestedParameters.remove(key);
        return data.get(key);
    }

    @Override
    public boolean has(String key) {
        addToDefaults(key, null);
        unrequestedParameters.remove(key);
        return data.containsKey(key);
    }

    @Override
    public Map<String, String> toMap() {
        return data;
    }

    // ------------------------------------------------------------------ exporting

    /** The parameters as a {@link Configuration} (string values). */
    public Configuration getConfiguration() {
        return Configuration.fromMap(data);
    }

    /** The parameters as {@link Properties}. */
    public Properties getProperties() {
        Properties properties = new Properties();
        properties.putAll(data);
        return properties;
    }

    /**
     * Writes every key asked for so far with its default ({@link #DEFAULT_UNDEFINED} if none) to a
     * properties file, replacing an existing one: a template for the program's configuration. Call it
     * after the program read its parameters.
     */
    public void createPropertiesFile(String pathToFile) throws IOException {
        createPropertiesFile(pathToFile, true);
    }

    /**
     * Like {@link #createPropertiesFile(String)}.
     *
     * @throws RuntimeException if the file exists and {@code overwrite} is false
     */
    public void createPropertiesFile(String pathToFile, boolean overwrite) throws IOException {
        File file = new File(pathToFile);
        if (file.exists() && !overwrite) {
            throw new RuntimeException("File " + pathToFile + " exists and overwriting is not allowed. Pass "
                    + "overwrite = true or choose another path.");
        }
        Properties defaults = new Properties();
        defaults.putAll(defaultData);
        try (OutputStream out = new FileOutputStream(file)) {
            defaults.store(out, "Default file created by Runnel's ParameterTool.createPropertiesFile()");
        }
    }

    // ------------------------------------------------------------------ combining

    /**
     * The parameters of both, {@code other}'s value winning for a key in both. Keys requested from
     * either are requested in the result.
     */
    public ParameterTool mergeWith(ParameterTool other) {
        Map<String, String> merged = new HashMap<>(data);
        merged.putAll(other.data);
        ParameterTool result = new ParameterTool(merged);
        result.unrequestedParameters.removeAll(requested());
        result.unrequestedParameters.removeAll(other.requested());
        return result;
    }

    private Set<String> requested() {
        Set<String> requested = new HashSet<>(data.keySet());
        requested.removeAll(unrequestedParameters);
        return requested;
    }

    @Override
    protected Object clone() throws CloneNotSupportedException {
        return new ParameterTool(data);
    }

    @Override
    public String toString() {
        return "ParameterTool" + new java.util.TreeMap<>(data);
    }
}
