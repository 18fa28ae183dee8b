package dev.runnel.streaming.util;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.KeyedProcessOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The harness's checkpoint steps: the order of the hooks, and restore of keyed and operator state. */
class HarnessCheckpointTest {

    /** Counts per key in keyed state. */
    static final class Count extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Integer> count;

        @Override
        public void open(OpenContext context) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.INT));
        }

        @Override
        public void processElement(String value, Context ctx, Collector<String> out) throws Exception {
            int n = count.value() == null ? 1 : count.value() + 1;
            count.update(n);
            out.collect(value + "=" + n);
        }
    }

    /** Keeps every record in operator list state, and logs the checkpoint hooks in order. */
    static final class Remembering extends AbstractStreamOperator<String> implements OneInputStreamOperator<String, String> {
        final List<String> hooks = new ArrayList<>();
        private transient ListState<String> seen;
        private transient boolean restored;

        @Override
        public void initializeState(StateInitializationContext context) throws Exception {
            restored = context.isRestored();
            seen = context.getOperatorStateStore().getListState(new ListStateDescriptor<>("seen", Types.STRING));
        }

        @Override
        public void processElement(StreamRecord<String> element) throws Exception {
            seen.add(element.getValue());
            List<String> all = new ArrayList<>();
            seen.get().forEach(all::add);
            output.collect(new StreamRecord<>((restored ? "restored " : "") + all));
        }

        @Override
        public void prepareSnapshotPreBarrier(long checkpointId) {
            hooks.add("barrier " + checkpointId);
        }

        @Override
        public void snapshotState(StateSnapshotContext context) {
            hooks.add("snapshot " + context.getCheckpointId());
        }

        @Override
        public void notifyCheckpointComplete(long checkpointId) throws Exception {
            super.notifyCheckpointComplete(checkpointId);
            hooks.add("complete " + checkpointId);
        }

        @Override
        public void notifyCheckpointAborted(long checkpointId) throws Exception {
            super.notifyCheckpointAborted(checkpointId);
            hooks.add("aborted " + checkpointId);
        }
    }

    @Test
    void keyedStateRestoresFromTheSubtaskStateASnapshotTook() throws Exception {
        var first = ProcessFunctionTestHarnesses.forKeyedProcessFunction(new Count(), (String s) -> s, Types.STRING);
        first.processElement("a", 1);
        first.processElement("a", 2);
        OperatorSubtaskState state = first.snapshot(1, 2);
        first.processElement("a", 3); // after the checkpoint: lost with the crash

        // ProcessFunctionTestHarnesses opens its harness; a restore builds the harness itself, as in Flink.
        try (var second = new KeyedOneInputStreamOperatorTestHarness<>(new KeyedProcessOperator<>(new Count()),
                (String s) -> s, Types.STRING)) {
            second.initializeState(state, 1);
            second.open();
            second.processElement("a", 3);
            assertThat(second.extractOutputValues()).containsExactly("a=3");
        }
    }

    @Test
    void operatorStateRestoresAndTheHooksRunInTheTasksOrder() throws Exception {
        Remembering operator = new Remembering();
        var first = new OneInputStreamOperatorTestHarness<>(operator);
        first.open();
        first.processElement("x");
        OperatorSubtaskState state = first.snapshot(7, 0);
        first.notifyOfAbortedCheckpoint(8);
        first.notifyOfCompletedCheckpoint(7);
        assertThat(operator.hooks).containsExactly("barrier 7", "snapshot 7", "aborted 8", "complete 7");
        assertThat(state.managedOperatorState()).hasSize(1);

        try (var second = new OneInputStreamOperatorTestHarness<>(new Remembering())) {
            second.initializeState(state);
            second.open();
            second.processElement("y");
            assertThat(second.extractOutputValues()).containsExactly("restored [x, y]");
        }
    }
}
