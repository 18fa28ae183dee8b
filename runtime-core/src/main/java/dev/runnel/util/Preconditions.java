package dev.runnel.util;

import java.util.concurrent.CancellationException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionException;

/**
 * Argument and state checks with Flink's overloads: {@code checkNotNull}, {@code checkArgument},
 * {@code checkState}, {@code checkElementIndex} and {@code checkCompletedNormally}.
 *
 * <p>Message templates use {@code %s} placeholders only, filled in order with the arguments'
 * {@code String.valueOf}. Extra arguments are appended in square brackets, surplus placeholders
 * stay as they are, and a null template prints as {@code "null"}: a failing check always reports
 * what it was given instead of failing a second time while formatting. The message is only built
 * when the check fails, so callers on hot paths pay for a comparison and nothing else.
 *
 * <p>Stateless; safe from any thread.
 */
public final class Preconditions {

    private Preconditions() {}

    // ------------------------------------------------------------------ null checks

    /** Returns {@code reference}, or throws a {@link NullPointerException} without a message if it is null. */
    public static <T> T checkNotNull(T reference) {
        if (reference == null) {
            throw new NullPointerException();
        }
        return reference;
    }

    /** Returns {@code reference}, or throws a {@link NullPointerException} with {@code errorMessage}. */
    public static <T> T checkNotNull(T reference, String errorMessage) {
        if (reference == null) {
            throw new NullPointerException(String.valueOf(errorMessage));
        }
        return reference;
    }

    /** Returns {@code reference}, or throws a {@link NullPointerException} with the formatted message. */
    public static <T> T checkNotNull(T reference, String errorMessageTemplate, Object... errorMessageArgs) {
        if (reference == null) {
            throw new NullPointerException(format(errorMessageTemplate, errorMessageArgs));
        }
        return reference;
    }

    // ------------------------------------------------------------------ argument checks

    /** Throws an {@link IllegalArgumentException} without a message unless {@code condition} holds. */
    public static void checkArgument(boolean condition) {
        if (!condition) {
            throw new IllegalArgumentException();
        }
    }

    /** Throws an {@link IllegalArgumentException} with {@code String.valueOf(errorMessage)} unless {@code condition} holds. */
    public static void checkArgument(boolean condition, Object errorMessage) {
        if (!condition) {
            throw new IllegalArgumentException(String.valueOf(errorMessage));
        }
    }

    /** Throws an {@link IllegalArgumentException} with the formatted message unless {@code condition} holds. */
    public static void checkArgument(boolean condition, String errorMessageTemplate, Object... errorMessageArgs) {
        if (!condition) {
            throw new IllegalArgumentException(format(errorMessageTemplate, errorMessageArgs));
        }
    }

    // ------------------------------------------------------------------ state checks

    /** Throws an {@link IllegalStateException} without a message unless {@code condition} holds. */
    public static void checkState(boolean condition) {
        if (!condition) {
            throw new IllegalStateException();
        }
    }

    /** Throws an {@link IllegalStateException} with {@code String.valueOf(errorMessage)} unless {@code condition} holds. */
    public static void checkState(boolean condition, Object errorMessage) {
        if (!condition) {
            throw new IllegalStateException(String.valueOf(errorMessage));
        }
    }

    /** Throws an {@link IllegalStateException} with the formatted message unless {@code condition} holds. */
    public static void checkState(boolean condition, String errorMessageTemplate, Object... errorMessageArgs) {
        if (!condition) {
            throw new IllegalStateException(format(errorMessageTemplate, errorMessageArgs));
        }
    }

    // ------------------------------------------------------------------ indexes and futures

    /**
     * Checks that {@code index} is in {@code [0, size)}; otherwise throws an
     * {@link IndexOutOfBoundsException} saying {@code "Index: i, Size: n"}. A negative size is an
     * {@link IllegalArgumentException}.
     */
    public static void checkElementIndex(int index, int size) {
        checkArgument(size >= 0, "Size was negative.");
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException("Index: " + index + ", Size: " + size);
        }
    }

    /** Like {@link #checkElementIndex(int, int)}, with {@code errorMessage} before the index and size. */
    public static void checkElementIndex(int index, int size, String errorMessage) {
        checkArgument(size >= 0, "Size was negative.");
        if (index < 0 || index >= size) {
            throw new IndexOutOfBoundsException(String.valueOf(errorMessage) + " Index: " + index + ", Size: " + size);
        }
    }

    /**
     * Checks that {@code future} is done and completed with a value: a future still running, failed
     * or cancelled is an {@link IllegalStateException} (a failure carries the future's cause).
     */
    public static void checkCompletedNormally(CompletableFuture<?> future) {
        checkNotNull(future, "future must not be null");
        checkState(future.isDone(), "The future is not completed yet; wait for it (e.g. join()) before checking it.");
        if (future.isCompletedExceptionally()) {
            throw new IllegalStateException("The future did not complete normally: " + causeOf(future), causeOf(future));
        }
    }

    private static Throwable causeOf(CompletableFuture<?> failed) {
        try {
            failed.join();
            return null;
        } catch (CompletionException e) {
            return e.getCause() != null ? e.getCause() : e;
        } catch (CancellationException e) {
            return e;
        }
    }

    // ------------------------------------------------------------------ formatting

    /** Fills the {@code %s} placeholders of {@code template} in order; see the class comment. */
    static String format(String template, Object... args) {
        String text = String.valueOf(template);
        int count = args == null ? 0 : args.length;
        StringBuilder out = new StringBuilder(text.length() + 16 * count);
        int from = 0;
        int used = 0;
        for (int at; used < count && (at = text.indexOf("%s", from)) >= 0; used++) {
            out.append(text, from, at).append(args[used]);
            from = at + 2;
        }
        out.append(text, from, text.length());
        return used < count ? appendRest(out, args, used) : out.toString();
    }

    private static String appendRest(StringBuilder out, Object[] args, int from) {
        out.append(" [");
        for (int i = from; i < args.length; i++) {
            out.append(i > from ? ", " : "").append(args[i]);
        }
        return out.append(']').toString();
    }
}
