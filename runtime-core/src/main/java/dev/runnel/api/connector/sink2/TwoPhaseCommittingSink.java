package dev.runnel.api.connector.sink2;

import java.io.IOException;

/**
 * The older form of a two-phase committing sink, kept because connectors still implement it: a
 * {@link Sink} whose writer is a {@link PrecommittingSinkWriter} and which is its own
 * {@link SupportsCommitter}.
 *
 * @param <InputT> the record type
 * @param <CommT> the committable type
 * @deprecated implement {@link Sink} and {@link SupportsCommitter}, with a {@link CommittingSinkWriter}
 */
@Deprecated
public interface TwoPhaseCommittingSink<InputT, CommT> extends Sink<InputT>, SupportsCommitter<CommT> {

    @Override
    PrecommittingSinkWriter<InputT, CommT> createWriter(WriterInitContext context) throws IOException;

    /** The committer, without context. */
    Committer<CommT> createCommitter() throws IOException;

    @Override
    default Committer<CommT> createCommitter(CommitterInitContext context) throws IOException {
        return createCommitter();
    }

    /**
     * The writer of a {@link TwoPhaseCommittingSink}.
     *
     * @deprecated use {@link CommittingSinkWriter}
     */
    @Deprecated
    interface PrecommittingSinkWriter<InputT, CommT> extends CommittingSinkWriter<InputT, CommT> {}
}
