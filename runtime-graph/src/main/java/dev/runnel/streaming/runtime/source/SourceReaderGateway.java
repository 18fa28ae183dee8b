package dev.runnel.streaming.runtime.source;

import dev.runnel.api.connector.source.SourceSplit;
import java.util.List;

/**
 * How a source coordinator talks to one reader: calls arrive on the coordinator's thread and are
 * handed to the reader's task thread. Thread-safe.
 */
public interface SourceReaderGateway<SplitT extends SourceSplit> {

    void assignSplits(List<SplitT> splits);

    void signalNoMoreSplits();
}
