package dev.runnel.api.connector.source;

import dev.runnel.core.io.SimpleVersionedSerializer;
import java.io.Serializable;

/**
 * A data source split into an enumerator (one per source, on the coordinator: finds and hands out
 * splits) and readers (one per subtask: read the splits they are given). This is the shape of
 * Flink's FLIP-27 sources, simplified.
 *
 * <p>The source object itself is a serializable factory; it holds configuration, not runtime state.
 *
 * @param <T> the record type
 * @param <SplitT> the split type
 * @param <EnumChkT> the enumerator's checkpoint type
 */
public interface Source<T, SplitT extends SourceSplit, EnumChkT> extends Serializable {

    Boundedness getBoundedness();

    SourceReader<T, SplitT> createReader(SourceReaderContext readerContext) throws Exception;

    SplitEnumerator<SplitT, EnumChkT> createEnumerator(SplitEnumeratorContext<SplitT> enumContext) throws Exception;

    SplitEnumerator<SplitT, EnumChkT> restoreEnumerator(
            SplitEnumeratorContext<SplitT> enumContext, EnumChkT checkpoint) throws Exception;

    SimpleVersionedSerializer<SplitT> getSplitSerializer();

    SimpleVersionedSerializer<EnumChkT> getEnumeratorCheckpointSerializer();
}
