package dev.runnel.util;

import java.util.Iterator;

/** An iterator over something that must be released (a running job's results, a file). */
public interface CloseableIterator<T> extends Iterator<T>, AutoCloseable {

    @Override
    void close() throws Exception;
}
