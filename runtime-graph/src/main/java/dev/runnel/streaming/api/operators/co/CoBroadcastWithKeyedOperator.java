package dev.runnel.streaming.api.operators.co;

import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReadOnlyBroadcastState;
import dev.runnel.api.common.state.State;
import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.runtime.state.KeyedStateBackend;
import dev.runnel.runtime.state.KeyedStateFunction;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.SimpleTimerService;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.util.List;

/**
 * Runs a {@link KeyedBroadcastProcessFunction}: input 1 is the keyed stream (its key current, keyed state,
 * timers, read-only broadcast state), input 2 the broadcast stream (read-write broadcast state and
 * {@code applyToKeyedState} over every key of this subtask). Outputs of {@code onTimer} carry the timer's
 * timestamp for event time and none for processing time. The broadcast states are heap maps of this subtask
 * ({@link BroadcastStates}) in operator state, not keyed state, and are checkpointed with it. Task thread only.
 */
public final class CoBroadcastWithKeyedOperator<KS, IN1, IN2, OUT>
        extends AbstractUdfStreamOperator<OUT, KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT>, Triggerable<KS, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    private final BroadcastStates broadcastStates;

    private transient TimestampedCollector<OUT> collector;
    private transient TimerService timers;
    private transient ReadWriteContextImpl readWriteContext;
    private transient ReadOnlyContextImpl readOnlyContext;
    private transient OnTimerContextImpl onTimerContext;

    public CoBroadcastWithKeyedOperator(KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT> function,
            List<MapStateDescriptor<?, ?>> broadcastStateDescriptors) {
        super(function);
        this.broadcastStates = new BroadcastStates(broadcastStateDescriptors);
    }

    @Override
    public void open() throws Exception {
        super.open();
        broadcastStates.open((dev.runnel.runtime.state.DefaultOperatorStateBackend) getOperatorStateBackend());
        collector = new TimestampedCollector<>(output);
        timers = new SimpleTimerService(getInternalTimerService("user-timers", VoidNamespaceSerializer.INSTANCE, this));
        readWriteContext = new ReadWriteContextImpl();
        readOnlyContext = new ReadOnlyContextImpl();
        onTimerContext = new OnTimerContextImpl();
    }

    @Override
    public void processElement1(StreamRecord<IN1> element) throws Exception {
        collector.setTimestamp(element);
        readOnlyContext.element = element;
        userFunction.processElement(element.getValue(), readOnlyContext, collector);
        readOnlyContext.element = null;
    }

    @Override
    public void processElement2(StreamRecord<IN2> element) throws Exception {
        collector.setTimestamp(element);
        readWriteContext.element = element;
        userFunction.processBroadcastElement(element.getValue(), readWriteContext, collector);
        readWriteContext.element = null;
    }

    @Override
    public void onEventTime(InternalTimer<KS, VoidNamespace> timer) throws Exception {
        collector.setAbsoluteTimestamp(timer.getTimestamp());
        fire(TimeDomain.EVENT_TIME, timer);
    }

    @Override
    public void onProcessingTime(InternalTimer<KS, VoidNamespace> timer) throws Exception {
        collector.eraseTimestamp();
        fire(TimeDomain.PROCESSING_TIME, timer);
    }

    private void fire(TimeDomain domain, InternalTimer<KS, VoidNamespace> timer) throws Exception {
        onTimerContext.domain = domain;
        onTimerContext.timer = timer;
        userFunction.onTimer(timer.getTimestamp(), onTimerContext, collector);
        onTimerContext.timer = null;
    }

    /** Visits every key with state under {@code descriptor}; the previous current key is restored after. */
    @SuppressWarnings("unchecked")
    private <VS, S extends State> void applyToAllKeys(StateDescriptor<S, VS> descriptor,
            KeyedStateFunction<KS, S> function) throws Exception {
        KeyedStateBackend<Object> backend = getKeyedStateBackend();
        Object previousKey = backend.getCurrentKey();
        S state = getPartitionedState(VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE, descriptor);
        List<Object> keys = backend.getKeys(descriptor.getName(), VoidNamespace.INSTANCE).toList();
        try {
            for (Object key : keys) {
                backend.setCurrentKey(key);
                function.process((KS) key, state);
            }
        } finally {
            if (previousKey != null) {
                backend.setCurrentKey(previousKey);
            }
        }
    }

    private final class ReadWriteContextImpl extends KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT>.Context {
        private StreamRecord<?> element;

        ReadWriteContextImpl() {
            userFunction.super();
        }

        @Override
        public <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) {
            return broadcastStates.get(stateDescriptor);
        }

        @Override
        public <VS, S extends State> void applyToKeyedState(StateDescriptor<S, VS> stateDescriptor,
                KeyedStateFunction<KS, S> function) throws Exception {
            applyToAllKeys(stateDescriptor, function);
        }

        @Override
        public Long timestamp() {
            return element.hasTimestamp() ? element.getTimestamp() : null;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, element.copy(value));
        }

        @Override
        public long currentProcessingTime() {
            return timers.currentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return timers.currentWatermark();
        }
    }

    private final class ReadOnlyContextImpl extends KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT>.ReadOnlyContext {
        private StreamRecord<?> element;

        ReadOnlyContextImpl() {
            userFunction.super();
        }

        @Override
        public <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) {
            return broadcastStates.get(stateDescriptor).readOnly();
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        @Override
        @SuppressWarnings("unchecked")
        public KS getCurrentKey() {
            return (KS) CoBroadcastWithKeyedOperator.this.getCurrentKey();
        }

        @Override
        public Long timestamp() {
            return element.hasTimestamp() ? element.getTimestamp() : null;
        }

        @Override
        public <X> void output(OutputTag<X> outputTag, X value) {
            output.collect(outputTag, element.copy(value));
        }

        @Override
        public long currentProcessingTime() {
            return timers.currentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return timers.currentWatermark();
        }
    }

    private final class OnTimerContextImpl extends KeyedBroadcastProcessFunction<KS, IN1, IN2, OUT>.OnTimerContext {
        private TimeDomain domain;
        private InternalTimer<KS, VoidNamespace> timer;

        OnTimerContextImpl() {
            userFunction.super();
        }

        @Override
        public TimeDomain timeDomain() {
            return domain;
        }

        @Override
        public KS getCurrentKey() {
            return timer.getKey();
        }

        @Override
        public <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) {
            return broadcastStates.get(stateDescriptor).readOnly();
        }

        @Override
        public TimerService timerService() {
            return timers;
        }

        @Override
        public Long timestamp() {
            return domain == TimeDomain.EVENT_TIME ? timer.getTimestamp() : null;
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
        public long currentProcessingTime() {
            return timers.currentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return timers.currentWatermark();
        }
    }
}
