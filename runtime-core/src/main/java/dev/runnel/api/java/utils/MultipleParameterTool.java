package dev.runnel.api.java.utils;

import dev.runnel.util.Preconditions;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Like {@link ParameterTool}, but a key may be given several times and keeps every value:
 * {@code --input a --input b} gives {@code getMultiParameter("input")} = {@code [a, b]}. The parsing
 * rules are ParameterTool's. As global job parameters ({@link #toMap()}) a repeated key shows its
 * last value.
 *
 * <p>The values are immutable; the request bookkeeping is thread-safe and not shipped.
 */
public class MultipleParameterTool extends AbstractParameterTool {

    private static final long serialVersionUID = 1L;

    /** Each key's values in the order given; unmodifiable. */
    protected final Map<String, Collection<String>> data;

    private MultipleParameterTool(Map<String, ? extends Collection<String>> data) {
        Map<String, Collection<String>> copy = new HashMap<>();
        data.forEach((key, values) -> copy.put(key, Collections.unmodifiableList(new ArrayList<>(values))));
        this.data = Collections.unmodifiableMap(copy);
        unrequestedParameters.addAll(copy.keySet());
    }

    /**
     * Parses {@code --key value} / {@code -key value} pairs, keeping every value of a repeated key.
     *
     * @throws IllegalArgumentException if an argument where a key belongs has no {@code -} prefix, or a
     *     key is empty
     */
    public static MultipleParameterTool fromArgs(String[] args) {
        Preconditions.checkNotNull(args, "args must not be null");
        Map<String, List<String>> map = new HashMap<>();
        int i = 0;
        while (i < args.length) {
            String key = keyFromArgs(args, i++);
            List<String> values = map.computeIfAbsent(key, k -> new ArrayList<>());
            if (i < args.length && isValueArgument(args[i])) {
                values.add(args[i++]);
            } else {
                values.add(NO_VALUE_KEY);
            }
        }
        return fromMultiMap(new HashMap<>(map));
    }

    /** The keys and values of {@code multiMap}, copied. */
    public static MultipleParameterTool fromMultiMap(Map<String, Collection<String>> multiMap) {
        Preconditions.checkNotNull(multiMap, "Unable to initialize from empty map");
        return new MultipleParameterTool(multiMap);
    }

    @Override
    public int getNumberOfParameters() {
        return data.size();
    }

    /**
     * The single value of {@code key}, or null if it was not given.
     *
     * @throws IllegalStateException if the key was given more than once
     */
    @Override
    public String get(String key) {
        Collection<String> values = getMultiParameter(key);
        if (values == null) {
            return null;
        }
        Preconditions.checkState(values.size() == 1,
                "Key %s should has only one value, but has %s: %s. Read all of them with getMultiParameter(\"%s\").",
                key, values.size(), values, key);
        return values.iterator().next();
    }

    @Override
    public boolean has(String key) {
        addToDefaults(key, null);
        unrequestedParameters.remove(key);
        return data.containsKey(key);
    }

    /** Every value of {@code key} in the order given, or null if it was not given. */
    public Collection<String> getMultiParameter(String key) {
        addToDefaults(key, null);
        unrequestedParameters.remove(key);
        return data.get(key);
    }

    /**
     * Every value of {@code key} in the order given.
     *
     * @throws RuntimeException if the key was not given
     */
    public Collection<String> getMultiParameterRequired(String key) {
        Collection<String> values = getMultiParameter(key);
        if (values == null) {
            throw new RuntimeException("No data for required key '" + key + "'. Pass it, e.g. as --" + key
                    + " <value> (repeat it for several values).");
        }
        return values;
    }

    /** Every key with all its values; unmodifiable. */
    public Map<String, Collection<String>> toMultiMap() {
        return data;
    }

    /** Every key with its last value ({@link #NO_VALUE_KEY} for a key without values). */
    @Override
    public Map<String, String> toMap() {
        Map<String, String> flat = new HashMap<>();
        data.forEach((key, values) -> flat.put(key, values.isEmpty() ? NO_VALUE_KEY : last(values)));
        return Collections.unmodifiableMap(flat);
    }

    private static String last(Collection<String> values) {
        String last = null;
        for (String value : values) {
            last = value;
        }
        return last;
    }

    /** Both tools' values, {@code other}'s appended after this one's for a key in both. */
    public MultipleParameterTool mergeWith(MultipleParameterTool other) {
        Map<String, Collection<String>> merged = new HashMap<>();
        data.forEach((key, values) -> merged.put(key, new ArrayList<>(values)));
        other.data.forEach((key, values) -> merged.computeIfAbsent(key, k -> new ArrayList<>()).addAll(values));
        MultipleParameterTool result = new MultipleParameterTool(merged);
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
        return new MultipleParameterTool(data);
    }

    @Override
    public String toString() {
        return "MultipleParameterTool" + new java.util.TreeMap<>(data);
    }
}
