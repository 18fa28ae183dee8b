package dev.runnel.api.common.functions.util;

import java.io.PrintStream;
import java.io.Serializable;

/**
 * Prints records for the print sinks, one line per record ({@code toString()}), to standard out or
 * standard error, with Flink's prefix:
 * <pre>
 *   parallelism 1, no identifier      record
 *   parallelism 1, identifier "id"    id> record
 *   parallelism n, no identifier      3> record        (subtask counted from 1)
 *   parallelism n, identifier "id"    id:3> record
 * </pre>
 *
 * <p>{@link #open} picks the stream ({@code System.out} or {@code System.err} as they are at that
 * moment) and fixes the prefix; then {@link #write} per record. One instance per subtask, used on its
 * task thread.
 *
 * @param <IN> the record type
 */
public class PrintSinkOutputWriter<IN> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String sinkIdentifier;
    private final boolean stdErr;
    private transient PrintStream stream;
    private transient String prefix;

    /** Prints to standard out without an identifier. */
    public PrintSinkOutputWriter() {
        this("", false);
    }

    /** Prints to standard error if {@code stdErr}, else to standard out, without an identifier. */
    public PrintSinkOutputWriter(boolean stdErr) {
        this("", stdErr);
    }

    /** Prints with {@code sinkIdentifier} (null or empty: none) in the prefix. */
    public PrintSinkOutputWriter(String sinkIdentifier, boolean stdErr) {
        this.sinkIdentifier = sinkIdentifier == null ? "" : sinkIdentifier;
        this.stdErr = stdErr;
    }

    /** Chooses the stream and the prefix for subtask {@code subtaskIndex} (from 0) of {@code numParallelSubtasks}. */
    public void open(int subtaskIndex, int numParallelSubtasks) {
        stream = stdErr ? System.err : System.out;
        String subtask = numParallelSubtasks > 1 ? (sinkIdentifier.isEmpty() ? "" : ":") + (subtaskIndex + 1) : "";
        String label = sinkIdentifier + subtask;
        prefix = label.isEmpty() ? "" : label + "> ";
    }

    /**
     * Prints {@code record} on a line of its own.
     *
     * @throws IllegalStateException if {@link #open} was not called
     */
    public void write(IN record) {
        if (stream == null) {
            throw new IllegalStateException("PrintSinkOutputWriter.write was called before open(subtask, parallelism)");
        }
        stream.println(prefix + record);
    }

    /** Flushes the stream. */
    public void flush() {
        if (stream != null) {
            stream.flush();
        }
    }

    @Override
    public String toString() {
        return "Print to " + (stdErr ? "System.err" : "System.out");
    }
}
