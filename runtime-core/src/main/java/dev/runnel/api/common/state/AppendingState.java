package dev.runnel.api.common.state;

/**
 * State that values are added to and read back as one result: a list, a running reduction, an
 * aggregate.
 *
 * @param <IN> the type of the values added
 * @param <OUT> the type of the result read
 */
public interface AppendingState<IN, OUT> extends State {

    /** The current key's result, or null (an empty list reads as an empty iterable) if none. */
    OUT get() throws Exception;

    /** Adds {@code value} to the current key's state. */
    void add(IN value) throws Exception;
}
