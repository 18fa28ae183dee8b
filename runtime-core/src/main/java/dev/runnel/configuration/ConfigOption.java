package dev.runnel.configuration;

import dev.runnel.util.TimeUtils;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.function.Function;

/**
 * A typed configuration key with a default value and a description, e.g. {@code state.backend.type}.
 * Immutable and thread-safe; declare options as constants next to the component that reads them, either
 * with the factories here ({@link #stringOption}, ...) or, as in Flink, with
 * {@code ConfigOptions.key("...").durationType().defaultValue(...)}.
 *
 * <p>An option may have fallback keys: when its own key is absent, {@link Configuration#get} reads the
 * first fallback key that is present, in the order declared. A fallback key marked deprecated is an old
 * name of the same setting (Flink's {@code withDeprecatedKeys}); reading it logs a warning that names the
 * new key. The default value may be null (an option with no default, e.g. a directory that must be
 * configured); {@link #hasDefaultValue()} says which.
 *
 * @param <T> the value type
 */
public final class ConfigOption<T> {

    /** One alternative key of an option; {@code deprecated} when it is an old name of the same setting. */
    public record FallbackKey(String key, boolean deprecated) {
        public FallbackKey {
            Objects.requireNonNull(key, "key");
        }
    }

    private final String key;
    private final T defaultValue;
    private final String description;
    private final Function<String, T> parser;
    private final Function<T, String> formatter;
    private final List<FallbackKey> fallbackKeys;

    ConfigOption(String key, T defaultValue, String description, Function<String, T> parser,
            Function<T, String> formatter, List<FallbackKey> fallbackKeys) {
        this.key = Objects.requireNonNull(key, "key");
        this.defaultValue = defaultValue;
        this.description = description == null ? "" : description;
        this.parser = Objects.requireNonNull(parser, "parser");
        this.formatter = Objects.requireNonNull(formatter, "formatter");
        this.fallbackKeys = List.copyOf(fallbackKeys);
    }

    private ConfigOption(String key, T defaultValue, String description, Function<String, T> parser) {
        this(key, defaultValue, description, parser, String::valueOf, List.of());
    }

    public static ConfigOption<String> stringOption(String key, String defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, s -> s);
    }

    public static ConfigOption<Integer> intOption(String key, int defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Parsers::parseInt);
    }

    public static ConfigOption<Long> longOption(String key, long defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Parsers::parseLong);
    }

    public static ConfigOption<Boolean> booleanOption(String key, boolean defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Parsers::parseBoolean);
    }

    /** An enum constant, written as its name in any case ({@code batch}, {@code BATCH}). */
    public static <E extends Enum<E>> ConfigOption<E> enumOption(String key, Class<E> type, E defaultValue,
            String description) {
        Objects.requireNonNull(type, "type");
        return new ConfigOption<>(key, defaultValue, description, s -> Parsers.parseEnum(type, s), Enum::name,
                List.of());
    }

    /** A size in bytes, written as a number with an optional unit: {@code 64mb}, {@code 512 kb}, {@code 1g}. */
    public static ConfigOption<Long> memoryOption(String key, long defaultBytes, String description) {
        return new ConfigOption<>(key, defaultBytes, description, MemorySize::parseBytes);
    }

    /**
     * A duration, written as Flink writes one: a number with an optional unit ({@code 500 ms}, {@code 10s},
     * {@code 10 min}; no unit is milliseconds) or ISO-8601 ({@code PT10S}). Values are written back with the
     * largest exact unit ({@code 10 min}).
     */
    public static ConfigOption<Duration> durationOption(String key, Duration defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Parsers::parseDuration,
                TimeUtils::formatWithHighestUnit, List.of());
    }

    /**
     * A size, written as a number with an optional unit ({@code 20 kb}, {@code 64mb}; powers of 1024) and
     * written back in the largest exact unit.
     */
    public static ConfigOption<MemorySize> memorySizeOption(String key, MemorySize defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, MemorySize::parse, Parsers::formatMemorySize,
                List.of());
    }

    /** A floating-point number ({@code 1.5}). */
    public static ConfigOption<Double> doubleOption(String key, double defaultValue, String description) {
        return new ConfigOption<>(key, defaultValue, description, Parsers::parseDouble);
    }

    public String key() {
        return key;
    }

    /** The value when no key of this option is set; null if the option has none. */
    public T defaultValue() {
        return defaultValue;
    }

    public boolean hasDefaultValue() {
        return defaultValue != null;
    }

    public String description() {
        return description;
    }

    /** The keys read, in order, when {@link #key()} is absent. */
    public List<FallbackKey> fallbackKeys() {
        return fallbackKeys;
    }

    /** This option, also read from {@code keys} (in order, after the ones it has) when its own key is absent. */
    public ConfigOption<T> withFallbackKeys(String... keys) {
        return withMoreKeys(keys, false);
    }

    /** This option, also read from the old names {@code keys}; reading one of them logs a deprecation warning. */
    public ConfigOption<T> withDeprecatedKeys(String... keys) {
        return withMoreKeys(keys, true);
    }

    /** This option with {@code newDescription}. */
    public ConfigOption<T> withDescription(String newDescription) {
        return new ConfigOption<>(key, defaultValue, newDescription, parser, formatter, fallbackKeys);
    }

    private ConfigOption<T> withMoreKeys(String[] keys, boolean deprecated) {
        List<FallbackKey> all = new ArrayList<>(fallbackKeys);
        for (String k : keys) {
            all.add(new FallbackKey(k, deprecated));
        }
        return new ConfigOption<>(key, defaultValue, description, parser, formatter, all);
    }

    /** Parses {@code text} read under {@code usedKey}; a malformed value fails naming that key and the text. */
    T parse(String text, String usedKey) {
        try {
            return parser.apply(text.trim());
        } catch (RuntimeException e) {
            String what = description.isEmpty() ? "" : " (" + description + ")";
            throw new IllegalArgumentException(String.format("Invalid value '%s' for configuration option '%s'%s: %s",
                    text, usedKey, what, e.getMessage()), e);
        }
    }

    /** The text {@link Configuration#set} stores for {@code value}, which {@link #parse} reads back. */
    String format(T value) {
        return formatter.apply(value);
    }

    @Override
    public String toString() {
        return key;
    }

    /** The parsers behind the option types; each failure message says what would be accepted. */
    static final class Parsers {

        private Parsers() {}

        static Integer parseInt(String s) {
            try {
                return Integer.valueOf(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a whole number between " + Integer.MIN_VALUE + " and "
                        + Integer.MAX_VALUE, e);
            }
        }

        static Long parseLong(String s) {
            try {
                return Long.valueOf(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a whole number", e);
            }
        }

        static Double parseDouble(String s) {
            try {
                return Double.valueOf(s);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("expected a number such as 1.5", e);
            }
        }

        static Boolean parseBoolean(String s) {
            if (s.equalsIgnoreCase("true") || s.equalsIgnoreCase("false")) {
                return Boolean.valueOf(s);
            }
            throw new IllegalArgumentException("expected true or false");
        }

        static <E extends Enum<E>> E parseEnum(Class<E> type, String s) {
            for (E constant : type.getEnumConstants()) {
                if (constant.name().equalsIgnoreCase(s)) {
                    return constant;
                }
            }
            throw new IllegalArgumentException("expected one of " + Arrays.toString(type.getEnumConstants()));
        }

        /**
         * Flink's duration syntax, plus ISO-8601 and a leading minus: Flink's older configurations write
         * {@code -1} for "off" (e.g. a disabled checkpoint interval), and reading it must not fail.
         */
        static Duration parseDuration(String s) {
            String upper = s.toUpperCase(Locale.ROOT);
            if (upper.startsWith("P") || upper.startsWith("-P") || upper.startsWith("+P")) {
                try {
                    return Duration.parse(s);
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException(durationHint(), e);
                }
            }
            boolean negative = s.startsWith("-");
            String magnitude = negative ? s.substring(1).trim() : s;
            try {
                Duration d = TimeUtils.parseDuration(magnitude);
                return negative ? d.negated() : d;
            } catch (RuntimeException e) {
                throw new IllegalArgumentException(durationHint() + " (" + e.getMessage() + ")", e);
            }
        }

        static String formatMemorySize(MemorySize size) {
            long bytes = size.getBytes();
            String[] units = {"gb", "mb", "kb"};
            int[] shifts = {30, 20, 10};
            for (int i = 0; i < units.length; i++) {
                if (bytes != 0 && bytes % (1L << shifts[i]) == 0) {
                    return (bytes >> shifts[i]) + " " + units[i];
                }
            }
            return bytes + " b";
        }

        private static String durationHint() {
            return "expected a duration such as 500 ms, 10 s, 10 min, 1 h, 10000 (milliseconds) or PT10S";
        }
    }
}
