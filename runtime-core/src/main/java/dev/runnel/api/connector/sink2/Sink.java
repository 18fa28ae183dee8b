package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.io.Serializable;

/**
 * Writes a stream out ({@code DataStream.sinkTo}): a serializable factory of one {@link SinkWriter} per
 * subtask.
 */
public interface Sink<InputT> extends Serializable {

    SinkWriter<InputT> createWriter(WriterInitContext context) throws IOException;
}
