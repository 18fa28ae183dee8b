package dev.runnel.streaming.api.operators.co;

import dev.runnel.streaming.api.operators.*;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.co.CoProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/** Runs a {@link CoProcessFunction} on two connected, non-keyed streams (no timers). */
public final class CoProcessOperator<IN1, IN2, OUT>
        extends AbstractUdfStreamOperator<OUT, CoProcessFunction<IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;

    public CoProcessOperator(CoProcessFunction<IN1, IN2, OUT> function) {
        super(function);
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        context = new ContextImpl();
    }

    @Override
    public void processElement1(StreamRecord<IN1> element) throws Exception {
        collector.setTimestamp(element);
        context.element = element;
        userFunction.processElement1(element.getValue(), context, collector);
    }

    @Override
    public void processElement2(StreamRecord<IN2> element) throws Exception {
        collector.setTimestamp(element);
        context.element = element;
        userFunction.processElement2(element.getValue(), context, collector);
    }

    private final class ContextImpl extends CoProcessFunction<IN1, IN2, OUT>.Context implements TimerService {
        private StreamRecord<?> element;

        ContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return element.hasTimestamp() ? element.getTimestamp() : null;
        }

        @Override
        public TimerService timerService() {
            return this;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, element.copy(value));
        }

        @Override
        public long currentProcessingTime() {
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            throw new UnsupportedOperationException("The current watermark is only available on keyed streams.");
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
