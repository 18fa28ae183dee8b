package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.Serializable;
import java.nio.channels.SeekableByteChannel;

/**
 * A written keyed-state snapshot: where its bytes are and where each key group starts in them.
 * Restores open it, seek to the key groups they own, and read. Immutable; the bytes it points to
 * must outlive every restore that uses it.
 */
public interface KeyedStateHandle extends Serializable {

    KeyGroupRangeOffsets getKeyGroupRangeOffsets();

    /** Opens the snapshot bytes for reading; the caller closes the channel. */
    SeekableByteChannel openChannel() throws IOException;

    /** The size of the snapshot in bytes. */
    long getStateSize();

    /** Where the snapshot lives, for error messages (a file path, or "in memory"). */
    String describe();
}
