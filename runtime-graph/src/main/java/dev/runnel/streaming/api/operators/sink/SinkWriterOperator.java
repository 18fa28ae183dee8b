package dev.runnel.streaming.api.operators.sink;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/** Runs a {@link Sink}'s writer: write per record, flush at the end of input, close always. */
public final class SinkWriterOperator<T> extends AbstractStreamOperator<Object> implements OneInputStreamOperator<T, Object> {

    private static final long serialVersionUID = 1L;

    private final Sink<T> sink;
    private transient SinkWriter<T> writer;
    private transient ContextImpl context;

    public SinkWriterOperator(Sink<T> sink) {
        this.sink = sink;
    }

    @Override
    public void open() throws Exception {
        super.open();
        context = new ContextImpl();
        writer = sink.createWriter(new WriterInitContext() {
            @Override
            public int getSubtaskId() {
                return task.getTaskInfo().getIndexOfThisSubtask();
            }

            @Override
            public int getNumberOfParallelSubtasks() {
                return task.getTaskInfo().getNumberOfParallelSubtasks();
            }

            @Override
            public int getAttemptNumber() {
                return task.getTaskInfo().getAttemptNumber();
            }

            @Override
            public MetricGroup metricGroup() {
                return getRuntimeContext().getMetricGroup();
            }

            @Override
            public long currentProcessingTime() {
                return getProcessingTimeService().getCurrentProcessingTime();
            }
        });
    }

    @Override
    public void processElement(StreamRecord<T> element) throws Exception {
        context.element = element;
        writer.write(element.getValue(), context);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        context.watermark = mark.getTimestamp();
        super.processWatermark(mark);
    }

    @Override
    public void finish() throws Exception {
        writer.flush(true);
        super.finish();
    }

    @Override
    public void close() throws Exception {
        try {
            if (writer != null) {
                writer.close();
            }
        } finally {
            super.close();
        }
    }

    private static final class ContextImpl implements SinkWriter.Context {
        private StreamRecord<?> element;
        private long watermark = Long.MIN_VALUE;

        @Override
        public long currentWatermark() {
            return watermark;
        }

        @Override
        public Long timestamp() {
            return element.hasTimestamp() ? element.getTimestamp() : null;
        }
    }
}
