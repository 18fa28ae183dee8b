package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import dev.runnel.streaming.api.operators.Input;
import dev.runnel.streaming.runtime.io.StatusWatermarkValve;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * One network input feeding the chain's head: unpacks batches into one reused record holder,
 * combines channel watermarks with a {@link StatusWatermarkValve}, and reports end of input when
 * every channel has ended. Task thread only.
 */
final class NetworkTaskInput<IN> implements TaskInput {

    private final InputGate gate;
    private final Input<IN> head;
    private final String headName;
    private final String subtaskName;
    private final StatusWatermarkValve valve;
    private final StreamRecord<IN> reuse = new StreamRecord<>(null);
    private boolean idle;

    NetworkTaskInput(InputGate gate, Input<IN> head, String headName, String subtaskName) {
        this.gate = gate;
        this.head = head;
        this.headName = headName;
        this.subtaskName = subtaskName;
        this.valve = new StatusWatermarkValve(gate.getNumberOfInputChannels());
    }

    NetworkTaskInput(InputGate gate, dev.runnel.streaming.api.operators.OneInputStreamOperator<IN, ?> head,
            String subtaskName) {
        this(gate, head, head.getOperatorName(), subtaskName);
    }

    @Override
    public InputStatus processInput() throws Exception {
        Object element = gate.pollNext();
        if (element == null) {
            return gate.isFinished() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        if (element instanceof RecordBatch batch) {
            processBatch(batch);
            gate.recycle(batch);
            return InputStatus.MORE_AVAILABLE;
        }
        processEvent(element, gate.lastChannel());
        return gate.isFinished() ? InputStatus.END_OF_INPUT : InputStatus.MORE_AVAILABLE;
    }

    @SuppressWarnings("unchecked")
    private void processBatch(RecordBatch batch) {
        int size = batch.size();
        StreamRecord<IN> record = reuse;
        for (int i = 0; i < size; i++) {
            record.replaceFromTransport((IN) batch.value(i), batch.timestamp(i));
            try {
                head.setKeyContextElement(record);
                head.processElement(record);
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw OperatorException.onRecord(headName, subtaskName, record.getValue(), e);
            }
        }
    }

    private void processEvent(Object event, int channel) throws Exception {
        if (event instanceof WatermarkEvent watermark) {
            emitIfAdvanced(valve.inputWatermark(watermark.timestamp(), channel));
        } else if (event instanceof WatermarkStatusEvent status) {
            emitIfAdvanced(valve.inputStatus(status.idle(), channel));
            if (valve.isIdle() != idle) {
                idle = valve.isIdle();
                head.processWatermarkStatus(idle);
            }
        } else if (event != EndOfPartitionEvent.INSTANCE) {
            throw new IllegalStateException("Unexpected event " + event + " on input channel " + channel
                    + " of " + subtaskName);
        }
    }

    private void emitIfAdvanced(long watermark) throws Exception {
        if (watermark != StatusWatermarkValve.NO_CHANGE) {
            try {
                head.processWatermark(new Watermark(watermark));
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw new OperatorException("Operator '" + headName + "' in " + subtaskName + " failed on watermark "
                        + watermark + ": " + e, e);
            }
        }
    }

    @Override
    public boolean isAvailable() {
        return gate.isAvailable();
    }

    @Override
    public void close() {
        gate.close();
    }
}
