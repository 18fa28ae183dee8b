package dev.runnel.configuration;

import dev.runnel.api.common.ExecutionConfig;
import java.util.Collections;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * String key/value configuration (from {@code runnel-conf.yaml}, the command line or code) read
 * through typed {@link ConfigOption}s. A value that does not parse fails when read, naming the key.
 *
 * <p>As in Flink, a configuration can also serve as the job's global parameters
 * ({@code env.getConfig().setGlobalJobParameters(conf)}), read back in a function with
 * {@code (Configuration) getRuntimeContext().getExecutionConfig().getGlobalJobParameters()}.
 *
 * <p>An option's fallback keys ({@link ConfigOption#fallbackKeys()}) are read when its own key is
 * absent, so a configuration written with Flink's older key names ({@code state.checkpoints.dir},
 * {@code state.backend}) reads the same as one written with the current ones; {@link #set} always writes
 * the option's own key.
 *
 * <p>Mutable and not thread-safe; build it, then hand it over (or {@link #copy()}) before tasks read it.
 */
public final class Configuration extends ExecutionConfig.GlobalJobParameters {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(Configuration.class);

    /** Deprecated keys already warned about: once per key and JVM is enough, reads are frequent. */
    private static final java.util.Set<String> WARNED_DEPRECATED_KEYS = java.util.concurrent.ConcurrentHashMap.newKeySet();

    private final TreeMap<String, String> values = new TreeMap<>();

    public Configuration() {}

    public static Configuration fromMap(Map<String, String> map) {
        Configuration c = new Configuration();
        c.values.putAll(map);
        return c;
    }

    /**
     * The value of {@code option}: from its key, else from its first fallback key that is set, else its
     * default (null for an option without one).
     *
     * @throws IllegalArgumentException if the value set does not parse; the message names the key it was read from
     */
    public <T> T get(ConfigOption<T> option) {
        return getOptional(option).orElse(option.defaultValue());
    }

    /** The value of {@code option} if its key or one of its fallback keys is set; empty otherwise. */
    public <T> Optional<T> getOptional(ConfigOption<T> option) {
        String raw = values.get(option.key());
        if (raw != null) {
            return Optional.of(option.parse(raw, option.key()));
        }
        for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
            raw = values.get(fallback.key());
            if (raw != null) {
                if (fallback.deprecated() && WARNED_DEPRECATED_KEYS.add(fallback.key())) {
                    LOG.warn("Configuration key '{}' is deprecated; use '{}' instead.", fallback.key(), option.key());
                }
                return Optional.of(option.parse(raw, fallback.key()));
            }
        }
        return Optional.empty();
    }

    /**
     * Sets {@code option}'s own key to {@code value}, written so that {@link #get} reads it back (a duration
     * as {@code 10 min}, an enum by its name). Its fallback keys are left as they are; the own key wins.
     * A null {@code value} removes the option (see {@link #removeConfig}).
     */
    public <T> Configuration set(ConfigOption<T> option, T value) {
        if (value == null) {
            removeConfig(option);
        } else {
            values.put(option.key(), option.format(value));
        }
        return this;
    }

    /** Removes {@code option}'s key and all its fallback keys; true if any was set. */
    public boolean removeConfig(ConfigOption<?> option) {
        Objects.requireNonNull(option, "option");
        boolean removed = values.remove(option.key()) != null;
        for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
            removed |= values.remove(fallback.key()) != null;
        }
        return removed;
    }

    /** Copies every key of {@code other} into this configuration, replacing values of the same keys. */
    public Configuration addAll(Configuration other) {
        values.putAll(other.values);
        return this;
    }

    public Configuration setString(String key, String value) {
        values.put(key, value);
        return this;
    }

    public String getString(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    /** Whether {@code option}'s key or one of its fallback keys is set. */
    public boolean contains(ConfigOption<?> option) {
        if (values.containsKey(option.key())) {
            return true;
        }
        for (ConfigOption.FallbackKey fallback : option.fallbackKeys()) {
            if (values.containsKey(fallback.key())) {
                return true;
            }
        }
        return false;
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
