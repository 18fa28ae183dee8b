package dev.runnel.configuration;

import java.time.Duration;
import java.util.List;
import java.util.Objects;
import java.util.function.Function;

/**
 * Builds {@link ConfigOption}s the way Flink's {@code ConfigOptions} does, so option declarations port as
 * they are:
 *
 * <pre>{@code
 * ConfigOption<Duration> TIMEOUT = ConfigOptions.key("execution.checkpointing.timeout")
 *         .durationType()
 *         .defaultValue(Duration.ofMinutes(10))
 *         .withDescription("...");
 * }</pre>
 *
 * <p>Stateless; the builders are immutable and thread-safe.
 */
public final class ConfigOptions {

    private ConfigOptions() {}

    /** Starts an option under {@code key}; pick its type next. */
    public static OptionBuilder key(String key) {
        return new OptionBuilder(Objects.requireNonNull(key, "key"));
    }

    /** An option key whose type is not chosen yet. */
    public static final class OptionBuilder {

        private final String key;

        private OptionBuilder(String key) {
            this.key = key;
        }

        public TypedConfigOptionBuilder<String> stringType() {
            return new TypedConfigOptionBuilder<>(key, s -> s, String::valueOf);
        }

        public TypedConfigOptionBuilder<Integer> intType() {
            return new TypedConfigOptionBuilder<>(key, ConfigOption.Parsers::parseInt, String::valueOf);
        }

        public TypedConfigOptionBuilder<Long> longType() {
            return new TypedConfigOptionBuilder<>(key, ConfigOption.Parsers::parseLong, String::valueOf);
        }

        public TypedConfigOptionBuilder<Double> doubleType() {
            return new TypedConfigOptionBuilder<>(key, ConfigOption.Parsers::parseDouble, String::valueOf);
        }

        public TypedConfigOptionBuilder<Boolean> booleanType() {
            return new TypedConfigOptionBuilder<>(key, ConfigOption.Parsers::parseBoolean, String::valueOf);
        }

        /** See {@link ConfigOption#durationOption} for the accepted syntax. */
        public TypedConfigOptionBuilder<Duration> durationType() {
            return new TypedConfigOptionBuilder<>(key, ConfigOption.Parsers::parseDuration,
                    dev.runnel.util.TimeUtils::formatWithHighestUnit);
        }

        /** See {@link ConfigOption#memorySizeOption} for the accepted syntax. */
        public TypedConfigOptionBuilder<MemorySize> memoryType() {
            return new TypedConfigOptionBuilder<>(key, MemorySize::parse, ConfigOption.Parsers::formatMemorySize);
        }

        /**
         * Values read with {@code parser} and written with {@code formatter}, for a value set that needs
         * translating (e.g. aliases of one name); {@code parser} gets the trimmed text and fails with an
         * exception whose message says what is accepted.
         */
        public <T> TypedConfigOptionBuilder<T> customType(Function<String, T> parser, Function<T, String> formatter) {
            return new TypedConfigOptionBuilder<>(key, Objects.requireNonNull(parser, "parser"),
                    Objects.requireNonNull(formatter, "formatter"));
        }

        /** Constants of {@code type}, matched by name in any case. */
        public <E extends Enum<E>> TypedConfigOptionBuilder<E> enumType(Class<E> type) {
            Objects.requireNonNull(type, "type");
            return new TypedConfigOptionBuilder<>(key, s -> ConfigOption.Parsers.parseEnum(type, s), Enum::name);
        }
    }

    /**
     * An option key with its type; finish it with {@link #defaultValue} or {@link #noDefaultValue}.
     *
     * @param <T> the value type
     */
    public static final class TypedConfigOptionBuilder<T> {

        private final String key;
        private final Function<String, T> parser;
        private final Function<T, String> formatter;

        private TypedConfigOptionBuilder(String key, Function<String, T> parser, Function<T, String> formatter) {
            this.key = key;
            this.parser = parser;
            this.formatter = formatter;
        }

        public ConfigOption<T> defaultValue(T value) {
            return new ConfigOption<>(key, Objects.requireNonNull(value, "default value"), "", parser, formatter,
                    List.of());
        }

        /** An option that reads as null unless configured. */
        public ConfigOption<T> noDefaultValue() {
            return new ConfigOption<>(key, null, "", parser, formatter, List.of());
        }
    }
}
