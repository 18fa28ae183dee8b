package dev.runnel.configuration;

import java.util.Locale;

/**
 * A number of bytes, as in Flink's {@code MemorySize} ({@code MemorySize.ofMebiBytes(64)},
 * {@code MemorySize.parse("64mb")}), and the parser of human-readable sizes such as {@code 64mb} or
 * {@code 2 g}. Immutable, serializable, thread-safe.
 */
public final class MemorySize implements java.io.Serializable, Comparable<MemorySize> {

    private static final long serialVersionUID = 1L;

    private final long bytes;

    /** @param bytes the size in bytes; not negative */
    public MemorySize(long bytes) {
        if (bytes < 0) {
            throw new IllegalArgumentException("a size must not be negative: " + bytes);
        }
        this.bytes = bytes;
    }

    public static MemorySize ofBytes(long bytes) {
        return new MemorySize(bytes);
    }

    public static MemorySize ofKibiBytes(long kibiBytes) {
        return new MemorySize(Math.multiplyExact(kibiBytes, 1L << 10));
    }

    public static MemorySize ofMebiBytes(long mebiBytes) {
        return new MemorySize(Math.multiplyExact(mebiBytes, 1L << 20));
    }

    /** The size {@code text} denotes, in the units of {@link #parseBytes}. */
    public static MemorySize parse(String text) {
        return new MemorySize(parseBytes(text));
    }

    public long getBytes() {
        return bytes;
    }

    public long getKibiBytes() {
        return bytes >> 10;
    }

    public long getMebiBytes() {
        return bytes >> 20;
    }

    @Override
    public int compareTo(MemorySize other) {
        return Long.compare(bytes, other.bytes);
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof MemorySize other && bytes == other.bytes;
    }

    @Override
    public int hashCode() {
        return Long.hashCode(bytes);
    }

    /** E.g. {@code 67108864 bytes}. */
    @Override
    public String toString() {
        return bytes + " bytes";
    }

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
