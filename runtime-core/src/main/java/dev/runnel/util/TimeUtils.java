package dev.runnel.util;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * Reads and writes time intervals the way Flink's configuration does: {@code "123 ms"},
 * {@code "30s"}, {@code "5 min"}, {@code "2 hours"}; a bare number is milliseconds.
 *
 * <p>Recognised unit labels (case-insensitive; the first of each is the one written back):
 * <pre>
 *   DAYS          d, day, days
 *   HOURS         h, hour, hours
 *   MINUTES       min, m, minute, minutes
 *   SECONDS       s, sec, secs, second, seconds
 *   MILLISECONDS  ms, milli, millis, millisecond, milliseconds
 *   MICROSECONDS  µs, micro, micros, microsecond, microseconds
 *   NANOSECONDS   ns, nano, nanos, nanosecond, nanoseconds
 * </pre>
 *
 * <p>Stateless; safe from any thread.
 */
public final class TimeUtils {

    private static final Map<String, ChronoUnit> LABEL_TO_UNIT = labelToUnit();

    private TimeUtils() {}

    /**
     * Parses {@code "<non-negative integer>[ ][unit]"} into a duration, e.g. {@code "10 s"}.
     *
     * @throws NullPointerException if {@code text} is null
     * @throws NumberFormatException if the text does not start with a digit
     * @throws IllegalArgumentException if the text is blank, the number does not fit a long, or the
     *     unit is unknown (the message lists the known units)
     */
    public static Duration parseDuration(String text) {
        Preconditions.checkNotNull(text, "the duration text must not be null");
        String trimmed = text.trim();
        Preconditions.checkArgument(!trimmed.isEmpty(), "argument is an empty- or whitespace-only string");
        int digits = countLeadingDigits(trimmed);
        if (digits == 0) {
            throw new NumberFormatException("text does not start with a number: '" + text
                    + "'. Write a duration as a number with an optional unit, e.g. '500 ms', '30 s' or '5 min'.");
        }
        long value = parseLong(trimmed.substring(0, digits));
        String label = trimmed.substring(digits).trim().toLowerCase(Locale.US);
        return label.isEmpty() ? Duration.ofMillis(value) : Duration.of(value, unitFor(label));
    }

    /** {@code duration} in whole milliseconds with the {@code ms} label, e.g. {@code "1500ms"}. */
    public static String getStringInMillis(Duration duration) {
        return duration.toMillis() + Unit.MILLISECONDS.labels.get(0);
    }

    /**
     * {@code duration} as {@code "<n> <unit>"} in the largest unit that loses nothing: 60000 ms is
     * {@code "1 min"}, 1 h 1 s is {@code "3601 s"}. As in Flink, a duration every unit divides (zero,
     * or whole days) is written in milliseconds: 1 day is {@code "86400000 ms"}. The duration must fit
     * a long number of nanoseconds.
     */
    public static String formatWithHighestUnit(Duration duration) {
        long nanos = duration.toNanos();
        Unit unit = highestExactUnit(nanos);
        return nanos / unit.nanos() + " " + unit.labels.get(0);
    }

    private static Unit highestExactUnit(long nanos) {
        Unit[] ascending = {Unit.NANOSECONDS, Unit.MICROSECONDS, Unit.MILLISECONDS, Unit.SECONDS, Unit.MINUTES,
                Unit.HOURS, Unit.DAYS};
        for (int i = 0; i < ascending.length; i++) {
            if (nanos % ascending[i].nanos() != 0) {
                return ascending[Math.max(0, i - 1)];
            }
        }
        return Unit.MILLISECONDS;
    }

    private static int countLeadingDigits(String text) {
        int pos = 0;
        while (pos < text.length() && text.charAt(pos) >= '0' && text.charAt(pos) <= '9') {
            pos++;
        }
        return pos;
    }

    private static long parseLong(String number) {
        try {
            return Long.parseLong(number);
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("The value '" + number
                    + "' cannot be represented as 64bit number (numeric overflow).", e);
        }
    }

    private static ChronoUnit unitFor(String label) {
        ChronoUnit unit = LABEL_TO_UNIT.get(label);
        if (unit == null) {
            throw new IllegalArgumentException("Time interval unit label '" + label
                    + "' does not match any of the recognized units: " + Unit.describeAll());
        }
        return unit;
    }

    private static Map<String, ChronoUnit> labelToUnit() {
        Map<String, ChronoUnit> map = new HashMap<>();
        for (Unit unit : Unit.values()) {
            unit.labels.forEach(label -> map.put(label, unit.chronoUnit));
        }
        return Collections.unmodifiableMap(map);
    }

    /** The units and their labels; the first label is the canonical one. */
    private enum Unit {
        DAYS(ChronoUnit.DAYS, "d", "day+"),
        HOURS(ChronoUnit.HOURS, "h", "hour+"),
        MINUTES(ChronoUnit.MINUTES, "min", "m", "minute+"),
        SECONDS(ChronoUnit.SECONDS, "s", "sec+", "second+"),
        MILLISECONDS(ChronoUnit.MILLIS, "ms", "milli+", "millisecond+"),
        MICROSECONDS(ChronoUnit.MICROS, "µs", "micro+", "microsecond+"),
        NANOSECONDS(ChronoUnit.NANOS, "ns", "nano+", "nanosecond+");

        private final ChronoUnit chronoUnit;
        private final List<String> labels = new ArrayList<>();

        /** A label ending in {@code +} stands for itself and its plural with {@code s}. */
        Unit(ChronoUnit chronoUnit, String... labels) {
            this.chronoUnit = chronoUnit;
            for (String label : labels) {
                if (label.endsWith("+")) {
                    String singular = label.substring(0, label.length() - 1);
                    this.labels.add(singular);
                    this.labels.add(singular + "s");
                } else {
                    this.labels.add(label);
                }
            }
        }

        long nanos() {
            return chronoUnit.getDuration().toNanos();
        }

        static String describeAll() {
            return Stream.of(values()).map(u -> u.name() + ": (" + String.join(" | ", u.labels) + ")")
                    .collect(Collectors.joining(", "));
        }
    }
}
