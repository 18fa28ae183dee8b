package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.Serializable;
import java.nio.channels.SeekableByteChannel;

/**
 * A written blob of state bytes: a file of a checkpoint, or an array held in memory. Whatever the bytes
 * mean (a keyed snapshot, operator state, a source enumerator's checkpoint) is for the handle that wraps
 * it to say ({@link KeyGroupsStateHandle}, {@code OperatorStreamStateHandle}).
 *
 * <p>Immutable and thread-safe; channels opened on it are independent, so several restores may read it at
 * once. The bytes must outlive every restore that uses the handle; {@link #discardState()} deletes them
 * and is only called by whoever owns the checkpoint they belong to.
 */
public interface StreamStateHandle extends Serializable {

    /** Opens the bytes for reading; the caller closes the channel. */
    SeekableByteChannel openChannel() throws IOException;

    /** The number of bytes. */
    long getStateSize();

    /** Where the bytes live, for error messages (a file path, or "in memory"). */
    String describe();

    /** Deletes the bytes (a file) or does nothing (memory). Idempotent: bytes already gone are not an error. */
    void discardState() throws IOException;
}
