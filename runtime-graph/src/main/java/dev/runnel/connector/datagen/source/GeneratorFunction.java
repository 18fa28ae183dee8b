package dev.runnel.connector.datagen.source;

import dev.runnel.api.common.functions.Function;
import dev.runnel.api.connector.source.SourceReaderContext;

/**
 * Makes the record for one index of a {@link DataGeneratorSource}: {@code map(i)} for each index
 * {@code i} the reader owns.
 *
 * <p>Each source reader (one per subtask) has its own deserialized copy; every method runs on that
 * reader's task thread, never concurrently: {@link #open} once before the first {@link #map},
 * {@link #close} once at the end (also after a failure, if {@link #open} was called). {@link #map}
 * must not return null and should not block (it is called inside the reader's non-blocking poll).
 *
 * @param <T> the input type ({@code Long}: the index)
 * @param <O> the record type
 */
@FunctionalInterface
public interface GeneratorFunction<T, O> extends Function {

    /** Prepares the function on its reader; {@code readerContext} says which subtask it is. */
    default void open(SourceReaderContext readerContext) throws Exception {}

    /** The record for {@code value}; never null. */
    O map(T value) throws Exception;

    /** Releases what {@link #open} acquired. */
    default void close() throws Exception {}
}
