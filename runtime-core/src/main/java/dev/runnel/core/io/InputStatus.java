package dev.runnel.core.io;

/** What a {@code SourceReader#pollNext} call found. */
public enum InputStatus {
    /** More records are available right away: call again. */
    MORE_AVAILABLE,
    /** Nothing now; wait for {@code SourceReader#isAvailable()}. */
    NOTHING_AVAILABLE,
    /** The reader finished all its splits and will get no more. */
    END_OF_INPUT
}
