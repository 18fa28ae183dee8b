package dev.runnel.api.connector.sink2;

import java.io.IOException;
import java.util.Collection;

/**
 * The older form of a sink with writer state, kept because connectors still implement it.
 *
 * @param <InputT> the record type
 * @param <WriterStateT> the writer state type
 * @deprecated implement {@link Sink} and {@link SupportsWriterState}
 */
@Deprecated
public interface StatefulSink<InputT, WriterStateT> extends Sink<InputT>, SupportsWriterState<InputT, WriterStateT> {

    @Override
    StatefulSinkWriter<InputT, WriterStateT> createWriter(WriterInitContext context) throws IOException;

    @Override
    StatefulSinkWriter<InputT, WriterStateT> restoreWriter(WriterInitContext context,
            Collection<WriterStateT> recoveredState) throws IOException;

    /**
     * @deprecated use {@link SupportsWriterState.WithCompatibleState}
     */
    @Deprecated
    interface WithCompatibleState extends SupportsWriterState.WithCompatibleState {}

    /**
     * The writer of a {@link StatefulSink}.
     *
     * @deprecated use {@link dev.runnel.api.connector.sink2.StatefulSinkWriter}
     */
    @Deprecated
    interface StatefulSinkWriter<InputT, WriterStateT>
            extends dev.runnel.api.connector.sink2.StatefulSinkWriter<InputT, WriterStateT> {}
}
