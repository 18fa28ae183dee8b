package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * A rolling reduce on a keyed stream ({@code reduce}, {@code sum}, {@code min}, {@code max}): keeps the
 * reduced value per key and emits it after every record.
 */
public final class StreamGroupedReduceOperator<IN> extends AbstractUdfStreamOperator<IN, ReduceFunction<IN>>
        implements OneInputStreamOperator<IN, IN> {

    private static final long serialVersionUID = 1L;

    private final TypeSerializer<IN> serializer;
    private transient ValueState<IN> values;

    public StreamGroupedReduceOperator(ReduceFunction<IN> reducer, TypeSerializer<IN> serializer) {
        super(reducer);
        this.serializer = serializer;
    }

    @Override
    public void open() throws Exception {
        super.open();
        values = getPartitionedState(VoidNamespace.INSTANCE, VoidNamespaceSerializer.INSTANCE,
                new ValueStateDescriptor<>("_op_state", serializer));
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        IN current = values.value();
        if (current != null) {
            IN reduced = userFunction.reduce(current, value);
            values.update(reduced);
            output.collect(element.replace(reduced));
        } else {
            values.update(value);
            output.collect(element.replace(value));
        }
    }
}
