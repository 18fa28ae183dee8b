package dev.runnel.api.common.state;

import java.io.IOException;

/**
 * A single value per key. {@link #value()} returns null when the key has no value yet.
 *
 * @param <T> the value type
 */
public interface ValueState<T> extends State {

    /** The current key's value, or null. */
    T value() throws IOException;

    /** Sets the current key's value; {@code null} clears it. */
    void update(T value) throws IOException;
}
