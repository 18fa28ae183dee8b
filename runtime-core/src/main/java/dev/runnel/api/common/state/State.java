package dev.runnel.api.common.state;

/**
 * Keyed state: one value per key (and per namespace, such as a window) of a keyed operator. A state
 * object is a handle; it reads and writes the entry of the key the operator is currently processing.
 *
 * <p>Only the task thread may use a state object, and only while a record or timer of a key is being
 * processed.
 */
public interface State {

    /** Removes the current key's entry. */
    void clear();
}
