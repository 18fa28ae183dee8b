package dev.runnel.streaming.api.functions.sink;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.functions.util.PrintSinkOutputWriter;

/**
 * The legacy print sink behind {@code DataStream.print()}: prints each record's {@code toString()}
 * to standard out (or error), prefixed like Flink: with {@code subtask> } when the parallelism is
 * above 1 (subtask counted from 1), and with {@code identifier:} when one is given. See
 * {@link PrintSinkOutputWriter} for the exact prefixes; {@link PrintSink} is the same for
 * {@code sinkTo}.
 */
public class PrintSinkFunction<IN> extends RichSinkFunction<IN> {

    private static final long serialVersionUID = 1L;

    private final String sinkIdentifier;
    private final PrintSinkOutputWriter<IN> writer;

    public PrintSinkFunction() {
        this(null, false);
    }

    /** Prints to standard error if {@code stdErr}. */
    public PrintSinkFunction(boolean stdErr) {
        this(null, stdErr);
    }

    public PrintSinkFunction(String sinkIdentifier, boolean stdErr) {
        this.sinkIdentifier = sinkIdentifier;
        this.writer = new PrintSinkOutputWriter<>(sinkIdentifier, stdErr);
    }

    @Override
    public void open(OpenContext openContext) {
        writer.open(getRuntimeContext().getIndexOfThisSubtask(), getRuntimeContext().getNumberOfParallelSubtasks());
    }

    @Override
    public void invoke(IN record) {
        writer.write(record);
    }

    @Override
    public String toString() {
        return sinkIdentifier == null ? writer.toString() : sinkIdentifier;
    }
}
