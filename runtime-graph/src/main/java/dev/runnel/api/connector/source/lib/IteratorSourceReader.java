package dev.runnel.api.connector.source.lib;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.lib.util.SequentialSplitReader;
import java.util.Iterator;

/**
 * Reads {@link IteratorSourceSplit}s one after another, one record per poll, asking the enumerator
 * for the next split whenever it runs out (the queue and the requests: {@link SequentialSplitReader}).
 * Ends when the enumerator says there are no more. Task thread only; owns the current split's iterator.
 */
public final class IteratorSourceReader<E, I extends Iterator<E>, SplitT extends IteratorSourceSplit<E, I>>
        extends SequentialSplitReader<E, SplitT> {

    private I iterator;

    /** @param context the subtask's context, for split requests; not null */
    public IteratorSourceReader(SourceReaderContext context) {
        super(context);
    }

    @Override
    protected void openSplit(SplitT split) {
        iterator = split.getIterator();
    }

    @Override
    protected boolean emitNext(SplitT split, ReaderOutput<E> output) {
        if (!iterator.hasNext()) {
            return false;
        }
        output.collect(iterator.next());
        return true;
    }

    @Override
    @SuppressWarnings("unchecked")
    protected SplitT snapshotSplit(SplitT split) {
        return (SplitT) split.getUpdatedSplitForIterator(iterator);
    }

    @Override
    protected void closeSplit() {
        iterator = null;
    }
}
