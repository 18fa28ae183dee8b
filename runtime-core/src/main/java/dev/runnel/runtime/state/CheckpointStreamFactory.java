package dev.runnel.runtime.state;

import java.io.IOException;

/**
 * Where the state of one checkpoint is written: tasks and stores ask it for streams, each of which
 * becomes one blob. Thread-safe: the asynchronous parts of several operators' snapshots write at once.
 */
public interface CheckpointStreamFactory {

    /** A new stream for one blob owned as {@code scope} says. */
    CheckpointStateOutputStream createCheckpointStateOutputStream(CheckpointedStateScope scope) throws IOException;
}
