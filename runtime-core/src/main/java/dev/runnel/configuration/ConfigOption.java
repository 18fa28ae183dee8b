package dev.runnel.configuration;

import java.util.Objects;
import java.util.function.Function;

/**
 * A typed configuration key with a default value and a description, e.g. {@code state.backend}.
 * Immutable; declare options as constants next to the component that reads them.
 *
 * @param <T> the value type
 */
public final class ConfigOption<T> {

    private final String key;
    private final T defaultValue;
    private final String description;
    private final Function<String, T> parser;

    private ConfigOption(String key, T defaultValue, String description, Function<String, T> parser) {
        this.key = Objects.requireNonNull(key, "key");
        this.defaultValue = defaultValue;
        this.description = description;
        this.parser = parser;
    }

    public static ConfigOption<String> stringOption(String key, String defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, s -> s);
    }

    public static ConfigOption<Integer> intOption(String key, int defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Integer::valueOf);
    }

    public static ConfigOption<Long> longOption(String key, long defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Long::valueOf);
    }

    public static ConfigOption<Boolean> booleanOption(String key, boolean defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, s -> {
            if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                return Boolean.valueOf(s);
            }
            throw new IllegalArgumentException("expected true or false");
        });
    }

    /** An enum constant, written as its name in any case ({@code batch}, {@code BATCH}). */
    public static <E extends Enum<E>> ConfigOption<E> enumOption(String key, Class<E> type, E defaultValue,
            String description) {
        Objects.requireNonNull(type, "type");
        return new ConfigOption<>(key, defaultValue, description, s -> {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equalsIgnoreCase(s)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("expected one of " + java.util.Arrays.toString(type.getEnumConstants()));
        });
    }

    /** A size in bytes, written as a number with an optional unit: {@code 64mb}, {@code 512 kb}, {@code 1g}. */
    public static ConfigOption<Long> memoryOption(String key, long defaultBytes, String description) {
        return new ConfigOption<>(key, defaultBytes, description, MemorySize::parseBytes);
    }

    public String key() {
        return key;
    }

    public T defaultValue() {
        return defaultValue;
    }

    public String description() {
        return description;
    }

    /** Parses {@code text}; a malformed value fails naming the key and the text. */
    T parse(String text) {
        try {
            return parser.apply(text.trim());
        } catch (RuntimeException e) {
            throw new IllegalArgumentException("Invalid value '" + text + "' for configuration option '" + key
                    + "' (" + description + "): " + e.getMessage(), e);
        }
    }

    @Override
    public String toString() {
        return key;
    }
}
