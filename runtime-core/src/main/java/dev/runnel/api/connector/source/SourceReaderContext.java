package dev.runnel.api.connector.source;

/** What a {@link SourceReader} may know about and ask of its subtask. */
public interface SourceReaderContext {

    int getIndexOfSubtask();

    int currentParallelism();

    /** Asks the enumerator for a split (answered by {@link SourceReader#addSplits} or no-more-splits). */
    void sendSplitRequest();
}
