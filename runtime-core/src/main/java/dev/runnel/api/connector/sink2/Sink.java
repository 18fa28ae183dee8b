package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.io.Serializable;

/**
 * Writes a stream out ({@code DataStream.sinkTo}): a serializable factory of one {@link SinkWriter} per
 * subtask.
 *
 * <p>A sink adds guarantees by also implementing the mix-ins: {@link SupportsWriterState} (the writer's
 * state is checkpointed and restored) and {@link SupportsCommitter} (output is staged at each checkpoint
 * and committed when the checkpoint completes: exactly once across failures, for idempotent commits).
 */
public interface Sink<InputT> extends Serializable {

    SinkWriter<InputT> createWriter(WriterInitContext context) throws IOException;
}
