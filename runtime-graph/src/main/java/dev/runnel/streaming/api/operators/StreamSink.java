package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Hands each record to a {@link SinkFunction}; emits nothing. */
public final class StreamSink<IN> extends AbstractUdfStreamOperator<Object, SinkFunction<IN>>
        implements OneInputStreamOperator<IN, Object> {

    private static final long serialVersionUID = 1L;

    private transient ContextImpl context;
    private transient long currentWatermark;

    public StreamSink(SinkFunction<IN> sinkFunction) {
        super(sinkFunction);
    }

    @Override
    public void open() throws Exception {
        super.open();
        context = new ContextImpl();
        currentWatermark = Long.MIN_VALUE;
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        // the timestamp, not the record: a record kept in a field would make its value escape (TimestampedCollector)
        context.timestamp = element.getTimestamp();
        context.hasTimestamp = element.hasTimestamp();
        userFunction.invoke(element.getValue(), context);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        currentWatermark = mark.getTimestamp();
        super.processWatermark(mark);
    }

    @Override
    public void finish() throws Exception {
        userFunction.finish();
        super.finish();
    }

    private final class ContextImpl implements SinkFunction.Context {
        private long timestamp;
        private boolean hasTimestamp;

        @Override
        public long currentProcessingTime() {
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }

        @Override
        public Long timestamp() {
            return hasTimestamp ? timestamp : null;
        }
    }
}
