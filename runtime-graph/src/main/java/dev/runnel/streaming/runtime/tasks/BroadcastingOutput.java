package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.streaming.api.operators.Output;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/** Sends everything to several outputs, in order (an operator with several consumers). */
final class BroadcastingOutput<T> implements Output<T> {

    private final Output<T>[] outputs;

    BroadcastingOutput(Output<T>[] outputs) {
        this.outputs = outputs;
    }

    @Override
    public void collect(StreamRecord<T> record) {
        // Each output may change the holder's value (chained operators replace in place): restore it.
        T value = record.getValue();
        long timestamp = record.transportTimestamp();
        for (Output<T> output : outputs) {
            output.collect(record.replaceFromTransport(value, timestamp));
        }
    }

    @Override
    public <X> void collect(OutputTag<X> outputTag, StreamRecord<X> record) {
        X value = record.getValue();
        long timestamp = record.transportTimestamp();
        for (Output<T> output : outputs) {
            output.collect(outputTag, record.replaceFromTransport(value, timestamp));
        }
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        for (Output<T> output : outputs) {
            output.emitWatermark(watermark);
        }
    }

    @Override
    public void emitWatermarkStatus(boolean idle) {
        for (Output<T> output : outputs) {
            output.emitWatermarkStatus(idle);
        }
    }

    @Override
    public void close() {
        for (Output<T> output : outputs) {
            output.close();
        }
    }
}
