package dev.runnel.api.connector.source.lib;

import dev.runnel.api.connector.source.SourceSplit;
import java.util.Iterator;

/**
 * A split whose records come from an iterator; {@link #getUpdatedSplitForIterator} captures how far
 * the iterator got, for checkpoints.
 */
public interface IteratorSourceSplit<E, I extends Iterator<E>> extends SourceSplit {

    I getIterator();

    /** The split that resumes where {@code iterator} stands. */
    IteratorSourceSplit<E, I> getUpdatedSplitForIterator(I iterator);
}
