package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.BaseKeyedProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/**
 * Runs what a keyed process function does the same whether it has one input or two: the timer
 * service and the contexts it sees, and {@code onTimer} with the timer's key current. Outputs of
 * {@code onTimer} carry the timer's timestamp for event time and no timestamp for processing time,
 * as in Flink. A subclass hands each record to its function between {@link #startElement} and
 * {@link #endElement}.
 *
 * <p>Task thread only. Owns one context of each kind, reused for every call.
 *
 * @param <K> the key type
 * @param <OUT> the output type
 * @param <F> the function type
 */
public abstract class KeyedProcessOperatorBase<K, OUT, F extends BaseKeyedProcessFunction<K, OUT>>
        extends AbstractUdfStreamOperator<OUT, F> implements Triggerable<K, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    private transient TimestampedCollector<OUT> collector;
    private transient ContextImpl context;
    private transient OnTimerContextImpl onTimerContext;
    /** What both contexts hand out as {@code timerService()}. */
    private transient TimerService timers;

    protected KeyedProcessOperatorBase(F function) {
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

    /**
     * Makes {@code element}'s timestamp the one the context reports and the collector's outputs carry; the
     * collector keeps the timestamp, not the record, which a field would make escape.
     */
    protected final BaseKeyedProcessFunction<K, OUT>.Context startElement(StreamRecord<?> element) {
        collector.setTimestamp(element);
        return context;
    }

    /** Where the function emits; its timestamp is set by {@link #startElement} or the firing timer. */
    protected final Collector<OUT> collector() {
        return collector;
    }

    /** Ends the call {@link #startElement} began: the context describes no record until the next one. */
    protected final void endElement() {
        collector.eraseTimestamp();
    }

    @Override
    public final void onEventTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        onEventTime(timer.getKey(), timer.getNamespace(), timer.getTimestamp());
    }

    /** By the timer's parts, so that a fired timer allocates nothing. */
    @Override
    public final void onEventTime(K key, VoidNamespace namespace, long timestamp) throws Exception {
        collector.setAbsoluteTimestamp(timestamp);
        fire(TimeDomain.EVENT_TIME, key, timestamp);
    }

    @Override
    public final void onProcessingTime(InternalTimer<K, VoidNamespace> timer) throws Exception {
        collector.eraseTimestamp();
        fire(TimeDomain.PROCESSING_TIME, timer.getKey(), timer.getTimestamp());
    }

    private void fire(TimeDomain domain, K key, long timestamp) throws Exception {
        onTimerContext.domain = domain;
        onTimerContext.key = key;
        onTimerContext.time = timestamp;
        userFunction.onTimer(timestamp, onTimerContext, collector);
        onTimerContext.key = null;
    }

    private final class ContextImpl extends BaseKeyedProcessFunction<K, OUT>.Context {

        ContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return collector.timestamp();
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, collector.record(value));
        }

        @Override
        @SuppressWarnings("unchecked")
        public K getCurrentKey() {
            return (K) KeyedProcessOperatorBase.this.getCurrentKey();
        }
    }

    private final class OnTimerContextImpl extends BaseKeyedProcessFunction<K, OUT>.OnTimerContext {
        private TimeDomain domain;
        /** The firing timer's key and timestamp, set for the duration of {@code onTimer}. */
        private K key;
        private long time;

        OnTimerContextImpl() {
            userFunction.super();
        }

        @Override
        public Long timestamp() {
            return domain == TimeDomain.EVENT_TIME ? time : null;
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, collector.record(value)); // the timer's time for event time, else none
        }

        @Override
        public TimeDomain timeDomain() {
            return domain;
        }

        @Override
        public K getCurrentKey() {
            return key;
        }
    }
}
