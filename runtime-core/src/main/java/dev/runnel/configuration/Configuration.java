package dev.runnel.configuration;

import dev.runnel.api.common.ExecutionConfig;
import java.util.Collections;
import java.util.Map;
import java.util.TreeMap;

/**
 * String key/value configuration (from {@code runnel-conf.yaml}, the command line or code) read
 * through typed {@link ConfigOption}s. A value that does not parse fails when read, naming the key.
 *
 * <p>As in Flink, a configuration can also serve as the job's global parameters
 * ({@code env.getConfig().setGlobalJobParameters(conf)}), read back in a function with
 * {@code (Configuration) getRuntimeContext().getExecutionConfig().getGlobalJobParameters()}.
 *
 * <p>Mutable and not thread-safe; build it, then hand it over (or {@link #copy()}) before tasks read it.
 */
public final class Configuration extends ExecutionConfig.GlobalJobParameters {

    private static final long serialVersionUID = 1L;

    private final TreeMap<String, String> values = new TreeMap<>();

    public Configuration() {}

    public static Configuration fromMap(Map<String, String> map) {
        Configuration c = new Configuration();
        c.values.putAll(map);
        return c;
    }

    public <T> T get(ConfigOption<T> option) {
        String raw = values.get(option.key());
        return raw == null ? option.defaultValue() : option.parse(raw);
    }

    public <T> Configuration set(ConfigOption<T> option, T value) {
        values.put(option.key(), String.valueOf(value));
        return this;
    }

    public Configuration setString(String key, String value) {
        values.put(key, value);
        return this;
    }

    public String getString(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    public boolean contains(ConfigOption<?> option) {
        return values.containsKey(option.key());
    }

    /** Every key and its raw value, sorted by key; read-only. */
    @Override
    public Map<String, String> toMap() {
        return Collections.unmodifiableMap(values);
    }

    public Configuration copy() {
        return fromMap(values);
    }

    @Override
    public String toString() {
        return values.toString();
    }
}
