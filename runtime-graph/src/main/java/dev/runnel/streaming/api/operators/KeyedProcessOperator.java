package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/**
 * Runs a {@link KeyedProcessFunction}: per record with the record's key current, and per fired timer
 * with the timer's key current. Outputs of {@code onTimer} carry the timer's timestamp for event
 * time and no timestamp for processing time, as in Flink.
 */
public final class KeyedProcessOperator<K, IN, OUT>
        extends AbstractUdfStreamOperator<OUT, KeyedProcessFunction<K, IN, OUT>>
        implements OneInputStreamOperator<IN, OUT>, Triggerable<K, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;
    private transient OnTimerContextImpl onTimerContext;
    /** What both contexts hand out as {@code timerService()}. */
    private transient TimerService timers;

    public KeyedProcessOperator(KeyedProcessFunction<K, IN, OUT> function) {
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
    public void processElement(StreamRecord<IN> element) throws Exception {
        collector.setTimestamp(element);
        context.element = element;
        userFunction.processElement(element.getValue(), context, collector);
        context.element = null;
    }

    @Override
    public void onEventTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        collector.setAbsoluteTimestamp(timer.getTimestamp());
        invokeUserFunction(TimeDomain.EVENT_TIME, timer);
    }

    @Override
    public void onProcessingTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        collector.eraseTimestamp();
        invokeUserFunction(TimeDomain.PROCESSING_TIME, timer);
    }

    private void invokeUserFunction(TimeDomain domain, InternalTimer<K, VoidNamespace> timer) throws Exception {
        onTimerContext.domain = domain;
        onTimerContext.timer = timer;
        userFunction.onTimer(timer.getTimestamp(), onTimerContext, collector);
        onTimerContext.timer = null;
    }

    private final class ContextImpl extends KeyedProcessFunction<K, IN, OUT>.Context {
        private StreamRecord<IN> element;

        ContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return element != null && element.hasTimestamp() ? element.getTimestamp() : null;
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
            return (K) KeyedProcessOperator.this.getCurrentKey();
        }
    }

    private final class OnTimerContextImpl extends KeyedProcessFunction<K, IN, OUT>.OnTimerContext {
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
