package dev.runnel.api.connector.sink2;

import java.io.IOException;

/**
 * Writes the records of one subtask. Task thread only: {@link #write} per record, {@link #flush} at
 * least at the end of input (with {@code endOfInput = true}), {@link #close()} always.
 */
public interface SinkWriter<InputT> extends AutoCloseable {

    void write(InputT element, Context context) throws IOException, InterruptedException;

    /** Makes everything written so far durable / visible; {@code endOfInput} on the last call. */
    void flush(boolean endOfInput) throws IOException, InterruptedException;

    /** What a writer may know about the record it writes. */
    interface Context {

        long currentWatermark();

        /** The record's timestamp, or null. */
        Long timestamp();
    }
}
