package dev.runnel.api.java.functions;

/**
 * Gives every record the same key, the byte 0: keys a stream whose operator must see all records in
 * one place, as {@code windowAll} does (its operator runs with parallelism 1).
 *
 * @param <T> the record type
 */
public final class NullByteKeySelector<T> implements KeySelector<T, Byte> {

    private static final long serialVersionUID = 1L;

    private static final Byte KEY = 0;

    @Override
    public Byte getKey(T value) {
        return KEY;
    }
}
