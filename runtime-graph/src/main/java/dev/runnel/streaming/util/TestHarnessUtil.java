package dev.runnel.streaming.util;

import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Queue;

/**
 * Assertions on harness output that need no test library: a mismatch throws an
 * {@link AssertionError} that shows both sides.
 */
public final class TestHarnessUtil {

    private TestHarnessUtil() {}

    /** The values of the records in {@code output}, watermarks skipped. */
    @SuppressWarnings("unchecked")
    public static <OUT> List<OUT> getRawElementsFromOutput(Queue<Object> output) {
        List<OUT> values = new ArrayList<>();
        for (Object o : output) {
            if (o instanceof StreamRecord<?> r) {
                values.add((OUT) r.getValue());
            }
        }
        return values;
    }

    /** {@code actual} holds the same records and watermarks as {@code expected}, in the same order. */
    public static void assertOutputEquals(String message, Queue<Object> expected, Queue<Object> actual) {
        List<Object> e = new ArrayList<>(expected);
        List<Object> a = new ArrayList<>(actual);
        if (!e.equals(a)) {
            throw new AssertionError(message + ": expected " + e + " but was " + a);
        }
    }

    /**
     * Like {@link #assertOutputEquals}, but records between two watermarks may come in any order:
     * both sides are compared after sorting each such run with {@code comparator}.
     */
    public static void assertOutputEqualsSorted(String message, Iterable<Object> expected, Iterable<Object> actual,
            Comparator<Object> comparator) {
        List<Object> e = sortedBetweenWatermarks(expected, comparator);
        List<Object> a = sortedBetweenWatermarks(actual, comparator);
        if (!e.equals(a)) {
            throw new AssertionError(message + ": expected " + e + " but was " + a);
        }
    }

    private static List<Object> sortedBetweenWatermarks(Iterable<Object> elements, Comparator<Object> comparator) {
        List<Object> result = new ArrayList<>();
        List<Object> run = new ArrayList<>();
        for (Object o : elements) {
            if (o instanceof StreamRecord<?>) {
                run.add(o);
            } else {
                run.sort(comparator);
                result.addAll(run);
                run.clear();
                result.add(o);
            }
        }
        run.sort(comparator);
        result.addAll(run);
        return result;
    }
}
