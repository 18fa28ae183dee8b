package dev.runnel.util;

import java.util.Arrays;

/**
 * String helpers shared by user-facing types. Stateless; safe from any thread.
 */
public final class StringUtils {

    private StringUtils() {}

    /**
     * {@code String.valueOf(o)}, except that arrays print their elements ({@code [1, 2]}) rather than
     * their identity, as in Flink's tuples.
     */
    public static String arrayAwareToString(Object o) {
        if (o == null) {
            return "null";
        }
        if (!o.getClass().isArray()) {
            return o.toString();
        }
        if (o instanceof Object[] objects) {
            return Arrays.deepToString(objects);
        }
        if (o instanceof byte[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof int[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof long[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof double[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof float[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof short[] a) {
            return Arrays.toString(a);
        }
        if (o instanceof char[] a) {
            return Arrays.toString(a);
        }
        return Arrays.toString((boolean[]) o);
    }
}
