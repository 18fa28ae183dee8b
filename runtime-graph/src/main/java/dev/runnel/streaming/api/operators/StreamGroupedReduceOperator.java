package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.VoidNamespace;
import dev.runnel.runtime.timers.InternalTimer;
import dev.runnel.runtime.timers.InternalTimerService;
import dev.runnel.runtime.timers.Triggerable;
import dev.runnel.runtime.state.VoidNamespaceSerializer;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * A rolling reduce on a keyed stream ({@code reduce}, {@code sum}, {@code min}, {@code max},
 * {@code minBy}, {@code maxBy}): keeps the reduced value per key in keyed state.
 *
 * <p>STREAMING: emits the key's reduced value after every record (each rolling update). BATCH: emits
 * nothing while the input runs; each key's final value comes once, from an event-time timer at the end of time
 * that its first record registers (as Flink's batch reduce does), so it fires when the key is finished: between
 * two keys of an input sorted by key, or at the final watermark (before it is forwarded). Those final values
 * carry no timestamp.
 */
public final class StreamGroupedReduceOperator<IN> extends AbstractUdfStreamOperator<IN, ReduceFunction<IN>>
        implements OneInputStreamOperator<IN, IN>, Triggerable<Object, VoidNamespace> {

    private static final long serialVersionUID = 1L;

    private static final String STATE_NAME = "_op_state";

    private final TypeSerializer<IN> serializer;
    private transient ValueState<IN> values;
    private transient boolean batch;
    private transient InternalTimerService<VoidNamespace> endOfKey;

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
        if (batch) {
            endOfKey = getInternalTimerService("_reduce_final", VoidNamespaceSerializer.INSTANCE, this);
        }
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        IN value = element.getValue();
        IN current = values.value();
        IN reduced = current == null ? value : userFunction.reduce(current, value);
        values.update(reduced);
        if (!batch) {
            output.collect(element.replace(reduced));
        } else if (current == null) {
            endOfKey.registerEventTimeTimer(VoidNamespace.INSTANCE, Long.MAX_VALUE);
        }
    }

    /** BATCH: the key is finished; its final value goes out once. */
    @Override
    public void onEventTime(InternalTimer<Object, VoidNamespace> timer) throws Exception {
        output.collect(new StreamRecord<>(values.value()));
    }

    @Override
    public void onProcessingTime(InternalTimer<Object, VoidNamespace> timer) {
        throw new IllegalStateException("a reduce registers no processing-time timers");
    }

    /** BATCH: a safety net should the final watermark not have come (it always does from sources). */
    @Override
    public void finish() throws Exception {
        if (batch) {
            finishBatchKey();
        }
        super.finish();
    }
}
