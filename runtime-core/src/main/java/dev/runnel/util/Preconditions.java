package dev.runnel.util;

/**
 * Argument and state checks that fail with a message built from a {@code %s} template.
 *
 * <p>The template is only formatted when the check fails, so callers on hot paths pay for a
 * comparison and nothing else. Stateless; safe from any thread.
 */
public final class Preconditions {

    private Preconditions() {}

    /** Throws {@link IllegalArgumentException} with the formatted message unless {@code condition} holds. */
    public static void checkArgument(boolean condition, String template, Object... args) {
        if (!condition) {
            throw new IllegalArgumentException(String.format(template, args));
        }
    }

    /** Throws {@link IllegalStateException} with the formatted message unless {@code condition} holds. */
    public static void checkState(boolean condition, String template, Object... args) {
        if (!condition) {
            throw new IllegalStateException(String.format(template, args));
        }
    }

    /**
     * Returns {@code reference} if it is not null; otherwise throws {@link NullPointerException}
     * with the formatted message.
     */
    public static <T> T checkNotNull(T reference, String template, Object... args) {
        if (reference == null) {
            throw new NullPointerException(String.format(template, args));
        }
        return reference;
    }
}
