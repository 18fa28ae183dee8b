package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import java.util.List;
import dev.runnel.streaming.api.operators.Input;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.TwoInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * The one input processor of a task with network inputs, over all of its gates: one for a one-input head,
 * two for a {@code connect}. Inputs are served in turn so neither starves; watermarks, watermark status and
 * end of input reach the head per input ({@code processWatermark1/2}, {@code processWatermarkStatus1/2},
 * {@code endInput}), and the task ends once every input has ended. Task thread only.
 */
final class StreamInputProcessor implements TaskInput {

    private final InputReader<?>[] inputs;
    private final boolean[] ended;
    private final TwoInputStreamOperator<?, ?, ?> twoInputHead;
    private final CheckpointBarrierHandler barriers;
    private int endedCount;
    private int next;

    private StreamInputProcessor(InputReader<?>[] inputs, TwoInputStreamOperator<?, ?, ?> twoInputHead,
            CheckpointBarrierHandler.Target checkpoints, CheckpointBarrierHandler.Setup setup) {
        this.inputs = inputs;
        InputGate[] gates = new InputGate[inputs.length];
        for (int i = 0; i < inputs.length; i++) {
            gates[i] = inputs[i].gate();
        }
        CheckpointBarrierHandler barriers = new CheckpointBarrierHandler(gates, checkpoints, setup);
        this.barriers = barriers;
        for (int i = 0; i < inputs.length; i++) {
            inputs[i].setBarrierHandler(barriers, i);
        }
        barriers.setPartialBatchSources(java.util.Arrays.asList(inputs));
        this.ended = new boolean[inputs.length];
        this.twoInputHead = twoInputHead;
    }

    /** @param setup the gate's descriptor (channels and serializer) and what else unaligned checkpoints need */
    static StreamInputProcessor forOneInput(InputGate gate, OneInputStreamOperator<?, ?> head, String subtaskName,
            TaskSignals signals, CheckpointBarrierHandler.Target checkpoints, CheckpointBarrierHandler.Setup setup) {
        return new StreamInputProcessor(new InputReader<?>[] {
            new InputReader<>(gate, head, head.getOperatorName(), subtaskName, signals)}, null, checkpoints,
            setup);
    }

    static StreamInputProcessor forTwoInputs(InputGate gate1, InputGate gate2, TwoInputStreamOperator<?, ?, ?> head,
            String subtaskName, TaskSignals signals, CheckpointBarrierHandler.Target checkpoints,
            CheckpointBarrierHandler.Setup setup) {
        String name = head.getOperatorName();
        return new StreamInputProcessor(new InputReader<?>[] {
            new InputReader<>(gate1, new SideOfTwo<>(head, 1), name, subtaskName, signals),
            new InputReader<>(gate2, new SideOfTwo<>(head, 2), name, subtaskName, signals)}, head, checkpoints,
            setup);
    }

    /** The restored channel state of input {@code input} (0-based), processed before its gate is read. */
    void setReplay(int input, ChannelStateReplay replay) {
        inputs[input].setReplay(replay);
    }

    CheckpointBarrierHandler barrierHandler() {
        return barriers;
    }

    @Override
    public InputStatus processInput() throws Exception {
        int n = inputs.length;
        for (int k = 0; k < n; k++) {
            int index = next;
            next = index + 1 == n ? 0 : index + 1;
            if (ended[index]) {
                continue;
            }
            InputStatus status = inputs[index].process();
            if (status == InputStatus.MORE_AVAILABLE) {
                return status;
            }
            if (status == InputStatus.END_OF_INPUT) {
                endInput(index);
                return endedCount == n ? InputStatus.END_OF_INPUT : InputStatus.MORE_AVAILABLE;
            }
        }
        return InputStatus.NOTHING_AVAILABLE;
    }

    private void endInput(int index) throws Exception {
        ended[index] = true;
        endedCount++;
        if (twoInputHead != null) {
            twoInputHead.endInput(index + 1);
        }
    }

    @Override
    public boolean isAvailable() {
        for (int i = 0; i < inputs.length; i++) {
            if (!ended[i] && inputs[i].isAvailable()) {
                return true;
            }
        }
        return false;
    }

    @Override
    public void close() {
        barriers.close();
        for (InputReader<?> input : inputs) {
            input.gate().close();
        }
    }

    /** One input of a two-input head, seen as an {@link Input}. */
    private static final class SideOfTwo<T> implements Input<T> {

        private final TwoInputStreamOperator<Object, Object, ?> head;
        private final boolean first;

        @SuppressWarnings("unchecked")
        SideOfTwo(TwoInputStreamOperator<?, ?, ?> head, int input) {
            this.head = (TwoInputStreamOperator<Object, Object, ?>) head;
            this.first = input == 1;
        }

        @Override
        @SuppressWarnings("unchecked")
        public void processElement(StreamRecord<T> element) throws Exception {
            if (first) {
                head.processElement1((StreamRecord<Object>) element);
            } else {
                head.processElement2((StreamRecord<Object>) element);
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public void setKeyContextElement(StreamRecord<T> record) throws Exception {
            if (first) {
                head.setKeyContextElement1((StreamRecord<Object>) record);
            } else {
                head.setKeyContextElement2((StreamRecord<Object>) record);
            }
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            if (first) {
                head.processWatermark1(mark);
            } else {
                head.processWatermark2(mark);
            }
        }

        @Override
        public void processWatermarkStatus(boolean idle) throws Exception {
            if (first) {
                head.processWatermarkStatus1(idle);
            } else {
                head.processWatermarkStatus2(idle);
            }
        }
    }
}
