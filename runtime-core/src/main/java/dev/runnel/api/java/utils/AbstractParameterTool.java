package dev.runnel.api.java.utils;

import dev.runnel.api.common.ExecutionConfig;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.util.Arrays;
import java.util.Collections;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Function;
import java.util.regex.Pattern;

/**
 * What {@link ParameterTool} and {@link MultipleParameterTool} share: typed getters with and
 * without defaults over a subclass's {@link #get(String)}, and the bookkeeping behind
 * {@link #getUnrequestedParameters()} and {@code createPropertiesFile}.
 *
 * <p>Every getter records the key it was asked for (and the default it was given), so that after the
 * program has read its parameters it can list those nobody asked for (likely typos) and write a
 * properties file with every known key. That bookkeeping is for the client: it is not shipped with
 * the job, and a deserialized copy starts with none. Getters are safe from several threads.
 */
public abstract class AbstractParameterTool extends ExecutionConfig.GlobalJobParameters implements Cloneable {

    private static final long serialVersionUID = 1L;

    /** The value of a key given on the command line without a value, e.g. {@code --verbose}. */
    protected static final String NO_VALUE_KEY = "__NO_VALUE_KEY";

    /** The default recorded for a key read without a default. */
    protected static final String DEFAULT_UNDEFINED = "<undefined>";

    private static final Pattern NUMBER = Pattern.compile(
            "[+-]?(0[xX][0-9a-fA-F]+|(\\d+\\.?\\d*|\\.\\d+)([eE][+-]?\\d+)?[fFdDlL]?)");

    /** Keys asked for, with the best default seen; client side only. */
    protected transient Map<String, String> defaultData = new ConcurrentHashMap<>();

    /** Keys nobody asked for yet; client side only. */
    protected transient Set<String> unrequestedParameters = ConcurrentHashMap.newKeySet();

    // ------------------------------------------------------------------ what subclasses provide

    /** The number of keys. */
    public abstract int getNumberOfParameters();

    /** The value of {@code key}, or null if it was not given; records the request. */
    public abstract String get(String key);

    /** Whether {@code key} was given (with or without a value); records the request. */
    public abstract boolean has(String key);

    /** Every key with its (single, or for repeated keys last) value; read-only, not recorded. */
    @Override
    public abstract Map<String, String> toMap();

    /**
     * The keys no getter or {@link #has(String)} asked for so far, e.g. to warn about misspelled
     * arguments once the program has read the ones it knows. Reading {@link #toMap()} does not count.
     */
    public Set<String> getUnrequestedParameters() {
        return Collections.unmodifiableSet(unrequestedParameters);
    }

    // ------------------------------------------------------------------ strings

    /**
     * The value of {@code key}.
     *
     * @throws RuntimeException if the key was not given
     */
    public String getRequired(String key) {
        addToDefaults(key, null);
        String value = get(key);
        if (value == null) {
            throw new RuntimeException("No data for required key '" + key + "'. Pass it, e.g. as --" + key
                    + " <value> on the command line or as " + key + "=<value> in the properties file.");
        }
        return value;
    }

    /** The value of {@code key}, or {@code defaultValue} if it was not given. */
    public String get(String key, String defaultValue) {
        addToDefaults(key, defaultValue);
        String value = get(key);
        return value == null ? defaultValue : value;
    }

    // ------------------------------------------------------------------ numbers and booleans

    /** The value of {@code key} as an int; fails if it is missing or not an int. */
    public int getInt(String key) {
        return parse(key, getRequired(key), "an int", Integer::parseInt);
    }

    /** The value of {@code key} as an int, or {@code defaultValue} if missing; fails if it is not an int. */
    public int getInt(String key, int defaultValue) {
        String value = valueOrNull(key, Integer.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "an int", Integer::parseInt);
    }

    /** The value of {@code key} as a long; fails if it is missing or not a long. */
    public long getLong(String key) {
        return parse(key, getRequired(key), "a long", Long::parseLong);
    }

    /** The value of {@code key} as a long, or {@code defaultValue} if missing; fails if it is not a long. */
    public long getLong(String key, long defaultValue) {
        String value = valueOrNull(key, Long.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "a long", Long::parseLong);
    }

    /** The value of {@code key} as a float; fails if it is missing or not a number. */
    public float getFloat(String key) {
        return parse(key, getRequired(key), "a float", Float::parseFloat);
    }

    /** The value of {@code key} as a float, or {@code defaultValue} if missing. */
    public float getFloat(String key, float defaultValue) {
        String value = valueOrNull(key, Float.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "a float", Float::parseFloat);
    }

    /** The value of {@code key} as a double; fails if it is missing or not a number. */
    public double getDouble(String key) {
        return parse(key, getRequired(key), "a double", Double::parseDouble);
    }

    /** The value of {@code key} as a double, or {@code defaultValue} if missing. */
    public double getDouble(String key, double defaultValue) {
        String value = valueOrNull(key, Double.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "a double", Double::parseDouble);
    }

    /**
     * Whether the value of {@code key} is {@code "true"} (any case); any other value is false, as
     * {@link Boolean#parseBoolean} reads it. Fails if the key is missing.
     */
    public boolean getBoolean(String key) {
        return Boolean.parseBoolean(getRequired(key));
    }

    /** Like {@link #getBoolean(String)}, with {@code defaultValue} if the key is missing. */
    public boolean getBoolean(String key, boolean defaultValue) {
        String value = valueOrNull(key, Boolean.toString(defaultValue));
        return value == null ? defaultValue : Boolean.parseBoolean(value);
    }

    /** The value of {@code key} as a short; fails if it is missing or not a short. */
    public short getShort(String key) {
        return parse(key, getRequired(key), "a short", Short::parseShort);
    }

    /** The value of {@code key} as a short, or {@code defaultValue} if missing. */
    public short getShort(String key, short defaultValue) {
        String value = valueOrNull(key, Short.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "a short", Short::parseShort);
    }

    /** The value of {@code key} as a byte; fails if it is missing or not a byte. */
    public byte getByte(String key) {
        return parse(key, getRequired(key), "a byte", Byte::parseByte);
    }

    /** The value of {@code key} as a byte, or {@code defaultValue} if missing. */
    public byte getByte(String key, byte defaultValue) {
        String value = valueOrNull(key, Byte.toString(defaultValue));
        return value == null ? defaultValue : parse(key, value, "a byte", Byte::parseByte);
    }

    // ------------------------------------------------------------------ internals

    /**
     * Records that {@code key} was asked for with {@code value} as its default (null: none). A real
     * default replaces an earlier {@link #DEFAULT_UNDEFINED}, never the other way round.
     */
    protected void addToDefaults(String key, String value) {
        String current = defaultData.get(key);
        if (current == null || (current.equals(DEFAULT_UNDEFINED) && value != null)) {
            defaultData.put(key, value == null ? DEFAULT_UNDEFINED : value);
        }
    }

    private String valueOrNull(String key, String defaultText) {
        addToDefaults(key, defaultText);
        return get(key);
    }

    private static <T> T parse(String key, String value, String what, Function<String, T> parser) {
        try {
            return parser.apply(value.trim());
        } catch (NumberFormatException e) {
            NumberFormatException clear = new NumberFormatException("The value '" + value + "' of parameter '" + key
                    + "' is not " + what + ". Pass " + what + ", e.g. --" + key + " 42.");
            clear.initCause(e);
            throw clear;
        }
    }

    /** Whether {@code text} reads as a number ({@code -1}, {@code 2.5}, {@code -1e3}, {@code 0x1F}). */
    static boolean isNumber(String text) {
        return NUMBER.matcher(text).matches();
    }

    /**
     * The key at {@code args[index]} without its {@code --} or {@code -} prefix.
     *
     * @throws IllegalArgumentException if it has no prefix or is empty after it
     */
    static String keyFromArgs(String[] args, int index) {
        String arg = args[index];
        String key;
        if (arg.startsWith("--")) {
            key = arg.substring(2);
        } else if (arg.startsWith("-")) {
            key = arg.substring(1);
        } else {
            throw new IllegalArgumentException(String.format(
                    "Error parsing arguments '%s' on '%s'. Please prefix keys with -- or -.", Arrays.toString(args), arg));
        }
        if (key.isEmpty()) {
            throw new IllegalArgumentException("The input " + Arrays.toString(args) + " contains an empty argument");
        }
        return key;
    }

    /** Whether the argument after a key is its value: anything but another key; a negative number is a value. */
    static boolean isValueArgument(String arg) {
        return isNumber(arg) || !arg.startsWith("-");
    }

    /** A deserialized copy starts with fresh, empty bookkeeping: it is not shipped. */
    private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
        in.defaultReadObject();
        defaultData = new ConcurrentHashMap<>();
        unrequestedParameters = ConcurrentHashMap.newKeySet();
    }

    @Override
    protected abstract Object clone() throws CloneNotSupportedException;
}
