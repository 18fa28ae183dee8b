package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.List;
import java.util.stream.Collectors;
import java.util.stream.Stream;

/**
 * A rolling reduce on a keyed stream ({@code reduce}, {@code sum}, {@code min}, {@code max},
 * {@code minBy}, {@code maxBy}): keeps the reduced value per key in keyed state.
 *
 * <p>STREAMING: emits the key's reduced value after every record (each rolling update). BATCH: emits
 * nothing while the input runs and, when the final watermark arrives at the end of input, each key's
 * final value once (before forwarding the watermark), as Flink's batch execution does. Those final
 * values carry no timestamp, and their order across keys is unspecified.
 */
public final class StreamGroupedReduceOperator<IN> extends AbstractUdfStreamOperator<IN, ReduceFunction<IN>>
        implements OneInputStreamOperator<IN, IN> {

    private static final long serialVersionUID = 1L;

    private static final String STATE_NAME = "_op_state";

    private final TypeSerializer<IN> serializer;
    private transient ValueState<IN> values;
    private transient boolean batch;
    private transient boolean emittedFinalValues;

    public StreamGroupedReduceOperator(ReduceFunction<IN> reducer, TypeSerializer<IN> serializer) {
        super(reducer);
        this.serializer = serializer;
    }

    @Override
    public void open() throws Exception {
        super.open();
        values = getPartitionedState(VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>(STATE_NAME, serializer));
        batch = task.isBatchExecution();
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        IN current = values.value();
        IN reduced = current == null ? value : userFunction.reduce(current, value);
        values.update(reduced);
        if (!batch) {
            output.collect(element.replace(reduced));
        }
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (batch && mark.getTimestamp() == Long.MAX_VALUE) {
            emitFinalValues();
        }
        super.processWatermark(mark);
    }

    /** BATCH: a safety net should the final watermark not have come (it always does from sources). */
    @Override
    public void finish() throws Exception {
        if (batch) {
            emitFinalValues();
        }
        super.finish();
    }

    private void emitFinalValues() throws Exception {
        if (emittedFinalValues) {
            return;
        }
        emittedFinalValues = true;
        List<Object> keys;
        try (Stream<Object> stream = getKeyedStateBackend().getKeys(STATE_NAME, VoidNamespace.INSTANCE)) {
            keys = stream.collect(Collectors.toList());
        }
        for (Object key : keys) {
            setCurrentKey(key);
            output.collect(new StreamRecord<>(values.value()));
        }
    }
}
