package dev.runnel.streaming.api.functions.sink.v2;

import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;

/**
 * A Sink V2 that drops every record: {@code stream.sinkTo(new DiscardingSink<>())} gives a pipeline
 * an end when only its side effects (accumulators, metrics, a benchmark's throughput) matter.
 * Stateless; any parallelism.
 *
 * @param <IN> the record type
 */
public class DiscardingSink<IN> implements Sink<IN> {

    private static final long serialVersionUID = 1L;

    @Override
    public SinkWriter<IN> createWriter(WriterInitContext context) {
        return new SinkWriter<>() {
            @Override
            public void write(IN element, Context context) {}

            @Override
            public void flush(boolean endOfInput) {}

            @Override
            public void close() {}
        };
    }

    @Override
    public String toString() {
        return "DiscardingSink";
    }
}
