package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.Output;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.OutputTag;

/**
 * Hands records straight to the next operator of the chain: a method call, no queue. When object
 * reuse is off and the type is mutable, the value is copied first (the upstream function may still
 * change it); immutable values are passed as they are.
 *
 * <p>Failures of the next operator are wrapped once with its name, the subtask and the record.
 */
final class ChainingOutput<T> implements Output<T> {

    private final OneInputStreamOperator<T, ?> operator;
    private final OutputTag<?> outputTag;
    private final TypeSerializer<T> copier;
    private final String subtaskName;
    private final boolean keyed;
    private final StreamRecord<T> copyHolder = new StreamRecord<>(null);

    /**
     * @param outputTag the side output this output carries, or null for the main output
     * @param copier serializer to copy values with, or null to pass them by reference
     * @param keyed whether {@code operator} has a key selector, so each record sets its key context first
     */
    ChainingOutput(OneInputStreamOperator<T, ?> operator, OutputTag<?> outputTag, TypeSerializer<T> copier,
            String subtaskName, boolean keyed) {
        this.operator = operator;
        this.outputTag = outputTag;
        this.copier = copier;
        this.subtaskName = subtaskName;
        this.keyed = keyed;
    }

    @Override
    public void collect(StreamRecord<T> record) {
        if (outputTag == null) {
            push(record);
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <X> void collect(OutputTag<X> tag, StreamRecord<X> record) {
        if (outputTag != null && outputTag.equals(tag)) {
            push((StreamRecord<T>) record);
        }
    }

    private void push(StreamRecord<T> record) {
        StreamRecord<T> toPush = record;
        if (copier != null) {
            toPush = copyHolder.replaceFromTransport(copier.copy(record.getValue()), record.transportTimestamp());
        }
        try {
            if (keyed) {
                operator.setKeyContextElement(toPush);
            }
            operator.processElement(toPush);
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw OperatorException.onRecord(operator.getOperatorName(), subtaskName, toPush.getValue(), e);
        }
    }

    @Override
    public void emitWatermark(Watermark watermark) {
        try {
            operator.processWatermark(watermark);
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorException("Operator '" + operator.getOperatorName() + "' in " + subtaskName
                    + " failed on " + watermark + ": " + e, e);
        }
    }

    @Override
    public void emitWatermarkStatus(boolean idle) {
        try {
            operator.processWatermarkStatus(idle);
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw new OperatorException("Operator '" + operator.getOperatorName() + "' failed on a status change: " + e, e);
        }
    }

    @Override
    public void close() {}
}
