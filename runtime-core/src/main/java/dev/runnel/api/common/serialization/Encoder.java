package dev.runnel.api.common.serialization;

import java.io.IOException;
import java.io.OutputStream;
import java.io.Serializable;

/**
 * Turns one record into the bytes of a row-format file (a line of text, a length-prefixed blob), for
 * the row format of {@code FileSink}.
 *
 * <p>Called on the sink's task thread, once per record, never concurrently on one instance. The
 * stream belongs to the sink: write the record's bytes to it, but never close it (and don't keep
 * it after returning). Instances are serializable configuration, shipped with the sink.
 *
 * @param <IN> the record type
 */
@FunctionalInterface
public interface Encoder<IN> extends Serializable {

    /** Writes {@code element} (not null) to {@code stream} (not null). */
    void encode(IN element, OutputStream stream) throws IOException;
}
