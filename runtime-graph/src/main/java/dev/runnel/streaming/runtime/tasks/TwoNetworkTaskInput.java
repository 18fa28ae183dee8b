package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.streaming.api.operators.Input;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * The two inputs of a two-input head ({@code connect}), served alternately so neither starves. An
 * input that ended is told to the operator; the task ends when both have.
 */
final class TwoNetworkTaskInput implements TaskInput {

    private final NetworkTaskInput<?> first;
    private final NetworkTaskInput<?> second;
    private final TwoInputStreamOperator<?, ?, ?> operator;
    private boolean firstEnded;
    private boolean secondEnded;
    private boolean preferSecond;

    @SuppressWarnings({"unchecked", "rawtypes"})
    TwoNetworkTaskInput(InputGate gate1, InputGate gate2, TwoInputStreamOperator<?, ?, ?> operator, String subtaskName) {
        this.operator = operator;
        TwoInputStreamOperator raw = operator;
        this.first = new NetworkTaskInput<>(gate1, new Input<Object>() {
            @Override
            public void processElement(StreamRecord<Object> element) throws Exception {
                raw.processElement1(element);
            }

            @Override
            public void processWatermark(Watermark mark) throws Exception {
                raw.processWatermark1(mark);
            }

            @Override
            public void setKeyContextElement(StreamRecord<Object> record) throws Exception {
                raw.setKeyContextElement1(record);
            }
        }, operator.getOperatorName(), subtaskName);
        this.second = new NetworkTaskInput<>(gate2, new Input<Object>() {
            @Override
            public void processElement(StreamRecord<Object> element) throws Exception {
                raw.processElement2(element);
            }

            @Override
            public void processWatermark(Watermark mark) throws Exception {
                raw.processWatermark2(mark);
            }

            @Override
            public void setKeyContextElement(StreamRecord<Object> record) throws Exception {
                raw.setKeyContextElement2(record);
            }
        }, operator.getOperatorName(), subtaskName);
    }

    @Override
    public InputStatus processInput() throws Exception {
        preferSecond = !preferSecond;
        InputStatus status = preferSecond ? poll(2) : poll(1);
        if (status == InputStatus.NOTHING_AVAILABLE) {
            status = preferSecond ? poll(1) : poll(2);
        }
        if (firstEnded && secondEnded) {
            return InputStatus.END_OF_INPUT;
        }
        return status == InputStatus.END_OF_INPUT ? InputStatus.MORE_AVAILABLE : status;
    }

    private InputStatus poll(int input) throws Exception {
        if (input == 1 ? firstEnded : secondEnded) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        InputStatus status = (input == 1 ? first : second).processInput();
        if (status == InputStatus.END_OF_INPUT) {
            if (input == 1) {
                firstEnded = true;
            } else {
                secondEnded = true;
            }
            operator.endInput(input);
        }
        return status;
    }

    @Override
    public boolean isAvailable() {
        return (!firstEnded && first.isAvailable()) || (!secondEnded && second.isAvailable());
    }

    @Override
    public void close() {
        first.close();
        second.close();
    }
}
