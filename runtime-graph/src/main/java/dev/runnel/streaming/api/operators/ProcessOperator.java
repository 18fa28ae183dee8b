package dev.runnel.streaming.api.operators;

import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/** Runs a {@link ProcessFunction} on a non-keyed stream (timers are refused). */
public final class ProcessOperator<IN, OUT> extends AbstractUdfStreamOperator<OUT, ProcessFunction<IN, OUT>>
        implements OneInputStreamOperator<IN, OUT> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;

    public ProcessOperator(ProcessFunction<IN, OUT> function) {
        super(function);
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        context = new ContextImpl();
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        // the collector keeps the record's timestamp, not the record, which a field would make escape
        collector.setTimestamp(element);
        userFunction.processElement(element.getValue(), context, collector);
        collector.eraseTimestamp(); // the context describes no record once the call returns
    }

    private final class ContextImpl extends ProcessFunction<IN, OUT>.Context implements TimerService {

        ContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return collector.timestamp();
        }

        @Override
        public TimerService timerService() {
            return this;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            if (outputTag == null) {
                throw new IllegalArgumentException("OutputTag must not be null");
            }
            output.collect(outputTag, collector.record(value));
        }

        @Override
        public long currentProcessingTime() {
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            throw new UnsupportedOperationException("The current watermark is only available on a keyed stream "
                    + "(after keyBy()) in a KeyedProcessFunction.");
        }

        @Override
        public void registerProcessingTimeTimer(long time) {
            throw new UnsupportedOperationException(UNSUPPORTED_REGISTER_TIMER_MSG);
        }

        @Override
        public void registerEventTimeTimer(long time) {
            throw new UnsupportedOperationException(UNSUPPORTED_REGISTER_TIMER_MSG);
        }

        @Override
        public void deleteProcessingTimeTimer(long time) {
            throw new UnsupportedOperationException(UNSUPPORTED_DELETE_TIMER_MSG);
        }

        @Override
        public void deleteEventTimeTimer(long time) {
            throw new UnsupportedOperationException(UNSUPPORTED_DELETE_TIMER_MSG);
        }
    }
}
