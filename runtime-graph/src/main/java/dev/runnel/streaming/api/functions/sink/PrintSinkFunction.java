package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.OpenContext;
import java.io.PrintStream;

/**
 * Prints each record's {@code toString()} to standard out (or error), prefixed like Flink: with
 * {@code subtask> } when the parallelism is above 1 (subtask counted from 1), and with
 * {@code identifier:} when one is given.
 */
public class PrintSinkFunction<IN> extends RichSinkFunction<IN> {

    private static final long serialVersionUID = 1L;

    private final String sinkIdentifier;
    private final boolean stdErr;
    private transient PrintStream stream;
    private transient String prefix;

    public PrintSinkFunction() {
        this(null, false);
    }

    public PrintSinkFunction(String sinkIdentifier, boolean stdErr) {
        this.sinkIdentifier = sinkIdentifier;
        this.stdErr = stdErr;
    }

    @Override
    public void open(OpenContext openContext) {
        stream = stdErr ? System.err : System.out;
        int subtask = getRuntimeContext().getIndexOfThisSubtask() + 1;
        boolean parallel = getRuntimeContext().getNumberOfParallelSubtasks() > 1;
        if (sinkIdentifier != null) {
            prefix = parallel ? sinkIdentifier + ":" + subtask + "> " : sinkIdentifier + "> ";
        } else {
            prefix = parallel ? subtask + "> " : "";
        }
    }

    @Override
    public void invoke(IN record) {
        stream.println(prefix + record);
    }

    @Override
    public String toString() {
        return sinkIdentifier == null ? "Print to " + (stdErr ? "System.err" : "System.out") : sinkIdentifier;
    }
}
