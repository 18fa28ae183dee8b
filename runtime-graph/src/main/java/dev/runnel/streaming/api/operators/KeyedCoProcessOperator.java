package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.co.KeyedCoProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/** Runs a {@link KeyedCoProcessFunction} on two connected keyed streams, with state and timers. */
public final class KeyedCoProcessOperator<K, IN1, IN2, OUT>
        extends AbstractUdfStreamOperator<OUT, KeyedCoProcessFunction<K, IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT>, Triggerable<K, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;
    private transient OnTimerContextImpl onTimerContext;
    /** What both contexts hand out as {@code timerService()}. */
    private transient TimerService timers;

    public KeyedCoProcessOperator(KeyedCoProcessFunction<K, IN1, IN2, OUT> function) {
        super(function);
    }

    @Override
    public void open() throws Exception {
        super.open();
        collector = new TimestampedCollector<>(output);
        timers = new SimpleTimerService(
                getInternalTimerService("user-timers", VoidNamespaceSerializer.INSTANCE, this));
        context = new ContextImpl();
        onTimerContext = new OnTimerContextImpl();
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

    @Override
    public void onEventTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        collector.setAbsoluteTimestamp(timer.getTimestamp());
        onTimerContext.domain = TimeDomain.EVENT_TIME;
        onTimerContext.timer = timer;
        userFunction.onTimer(timer.getTimestamp(), onTimerContext, collector);
    }

    @Override
    public void onProcessingTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        collector.eraseTimestamp();
        onTimerContext.domain = TimeDomain.PROCESSING_TIME;
        onTimerContext.timer = timer;
        userFunction.onTimer(timer.getTimestamp(), onTimerContext, collector);
    }

    private final class ContextImpl extends KeyedCoProcessFunction<K, IN1, IN2, OUT>.Context {
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
            return timers;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, element.copy(value));
        }

        @Override
        @SuppressWarnings("unchecked")
        public K getCurrentKey() {
            return (K) KeyedCoProcessOperator.this.getCurrentKey();
        }
    }

    private final class OnTimerContextImpl extends KeyedCoProcessFunction<K, IN1, IN2, OUT>.OnTimerContext {
        private TimeDomain domain;
        private InternalTimer<K, VoidNamespace> timer;

        OnTimerContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return domain == TimeDomain.EVENT_TIME ? timer.getTimestamp() : null;
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            StreamRecord<X> record = new StreamRecord<>(value);
            if (domain == TimeDomain.EVENT_TIME) {
                record.setTimestamp(timer.getTimestamp());
            }
            output.collect(outputTag, record);
        }

        @Override
        public TimeDomain timeDomain() {
            return domain;
        }

        @Override
        public K getCurrentKey() {
            return timer.getKey();
        }
    }
}
