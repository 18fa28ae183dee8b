package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.util.PrintSinkOutputWriter;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;

/**
 * A Sink V2 ({@code stream.sinkTo(new PrintSink<>())}) that prints each record's {@code toString()}
 * on a line of its own to standard out, or standard error, with the same prefixes as
 * {@code print()}: {@code identifier:subtask> } as described in {@link PrintSinkOutputWriter}.
 * Meant for development and tests: every line goes through one shared stream.
 *
 * @param <IN> the record type
 */
public class PrintSink<IN> implements Sink<IN> {

    private static final long serialVersionUID = 1L;

    private final String sinkIdentifier;
    private final boolean stdErr;

    /** Prints to standard out without an identifier. */
    public PrintSink() {
        this("", false);
    }

    /** Prints to standard error if {@code stdErr}, else to standard out. */
    public PrintSink(boolean stdErr) {
        this("", stdErr);
    }

    /** Prints to standard out, prefixing each line with {@code sinkIdentifier}. */
    public PrintSink(String sinkIdentifier) {
        this(sinkIdentifier, false);
    }

    public PrintSink(String sinkIdentifier, boolean stdErr) {
        this.sinkIdentifier = sinkIdentifier == null ? "" : sinkIdentifier;
        this.stdErr = stdErr;
    }

    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) {
        PrintSinkOutputWriter<IN> writer = new PrintSinkOutputWriter<>(sinkIdentifier, stdErr);
        writer.open(context.getSubtaskId(), context.getNumberOfParallelSubtasks());
        return new Writer<>(writer);
    }

    @Override
    public String toString() {
        return sinkIdentifier.isEmpty() ? "Print to " + (stdErr ? "System.err" : "System.out") : sinkIdentifier;
    }

    /** Prints each record; flushing flushes the stream. */
    private static final class Writer<IN> implements SinkWriter<IN> {
        private final PrintSinkOutputWriter<IN> out;

        Writer(PrintSinkOutputWriter<IN> out) {
            this.out = out;
        }

        @Override
        public void write(IN element, Context context) {
            out.write(element);
        }

        @Override
        public void flush(boolean endOfInput) {
            out.flush();
        }

        @Override
        public void close() {
            out.flush();
        }
    }
}
