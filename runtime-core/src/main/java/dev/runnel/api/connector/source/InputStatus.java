package dev.runnel.api.connector.source;

/** What a {@link SourceReader#pollNext(ReaderOutput)} call found. */
public enum InputStatus {
    /** More records are available right away: call again. */
    MORE_AVAILABLE,
    /** Nothing now; wait for {@link SourceReader#isAvailable()}. */
    NOTHING_AVAILABLE,
    /** The reader finished all its splits and will get no more. */
    END_OF_INPUT
}
