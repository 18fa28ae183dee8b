package dev.runnel.streaming.api.operators.co;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.state.ReadOnlyBroadcastState;
import dev.runnel.streaming.api.functions.co.BroadcastProcessFunction;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;
import java.util.List;

/**
 * Runs a {@link BroadcastProcessFunction}: input 1 is the non-broadcast stream (read-only broadcast state),
 * input 2 the broadcast stream (read-write broadcast state). The broadcast states are heap maps of this
 * subtask ({@link BroadcastStates}) in its operator state, checkpointed with it. Task thread only.
 */
public final class CoBroadcastWithNonKeyedOperator<IN1, IN2, OUT>
        extends AbstractUdfStreamOperator<OUT, BroadcastProcessFunction<IN1, IN2, OUT>>
        implements TwoInputStreamOperator<IN1, IN2, OUT> {

    private static final long serialVersionUID = 1L;

    private final BroadcastStates broadcastStates;

    private transient TimestampedCollector<OUT> collector;
    private transient ReadWriteContextImpl readWriteContext;
    private transient ReadOnlyContextImpl readOnlyContext;
    private transient long currentWatermark;

    public CoBroadcastWithNonKeyedOperator(BroadcastProcessFunction<IN1, IN2, OUT> function,
            List<MapStateDescriptor<?, ?>> broadcastStateDescriptors) {
        super(function);
        this.broadcastStates = new BroadcastStates(broadcastStateDescriptors);
    }

    @Override
    public void open() throws Exception {
        super.open();
        broadcastStates.open((dev.runnel.runtime.state.DefaultOperatorStateBackend) getOperatorStateBackend());
        collector = new TimestampedCollector<>(output);
        readWriteContext = new ReadWriteContextImpl();
        readOnlyContext = new ReadOnlyContextImpl();
        currentWatermark = Long.MIN_VALUE;
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
    public void processWatermark(Watermark mark) throws Exception {
        currentWatermark = mark.getTimestamp();
        super.processWatermark(mark);
    }

    private final class ReadWriteContextImpl extends BroadcastProcessFunction<IN1, IN2, OUT>.Context {
        private StreamRecord<?> element;

        ReadWriteContextImpl() {
            userFunction.super();
        }

        @Override
        public <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) {
            return broadcastStates.get(stateDescriptor);
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
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }
    }

    private final class ReadOnlyContextImpl extends BroadcastProcessFunction<IN1, IN2, OUT>.ReadOnlyContext {
        private StreamRecord<?> element;

        ReadOnlyContextImpl() {
            userFunction.super();
        }

        @Override
        public <K, V> ReadOnlyBroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) {
            return broadcastStates.get(stateDescriptor).readOnly();
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
            return getProcessingTimeService().getCurrentProcessingTime();
        }

        @Override
        public long currentWatermark() {
            return currentWatermark;
        }
    }
}
