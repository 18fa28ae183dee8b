package dev.runnel.api.connector.sink2;

import dev.runnel.api.common.eventtime.Watermark;
import java.io.IOException;

/**
 * Writes the records of one subtask. Task thread only: {@link #write} per record, {@link #flush} at each
 * checkpoint barrier and at the end of input (with {@code endOfInput = true}), {@link #close()} always (also
 * after a failure, without a final flush).
 */
public interface SinkWriter<InputT> extends AutoCloseable {

    void write(InputT element, Context context) throws IOException, InterruptedException;

    /**
     * Makes everything written so far durable: at each checkpoint barrier ({@code false}) and once at the end
     * of input ({@code true}). A {@link CommittingSinkWriter} makes it visible only through its committables.
     */
    void flush(boolean endOfInput) throws IOException, InterruptedException;

    /** The input's watermark advanced to {@code watermark}; for writers that write watermarks out. */
    default void writeWatermark(Watermark watermark) throws IOException, InterruptedException {}

    /** What a writer may know about the record it writes. */
    interface Context {

        long currentWatermark();

        /** The record's timestamp, or null. */
        Long timestamp();
    }
}
