package dev.runnel.configuration;

import java.util.Locale;

/** Parses human-readable byte sizes such as {@code 64mb} or {@code 2 g}. Stateless. */
public final class MemorySize {

    private MemorySize() {}

    /** The number of bytes {@code text} denotes; units b, k/kb, m/mb, g/gb (powers of 1024). */
    public static long parseBytes(String text) {
        String t = text.trim().toLowerCase(Locale.ROOT);
        int i = 0;
        while (i < t.length() && Character.isDigit(t.charAt(i))) {
            i++;
        }
        if (i == 0) {
            throw new IllegalArgumentException("a size must start with a number, e.g. 64mb");
        }
        long number = Long.parseLong(t.substring(0, i));
        String unit = t.substring(i).trim();
        long factor = switch (unit) {
            case "", "b", "bytes" -> 1L;
            case "k", "kb", "kib" -> 1L << 10;
            case "m", "mb", "mib" -> 1L << 20;
            case "g", "gb", "gib" -> 1L << 30;
            default -> throw new IllegalArgumentException("unknown unit '" + unit + "' (use b, kb, mb or gb)");
        };
        return Math.multiplyExact(number, factor);
    }
}
