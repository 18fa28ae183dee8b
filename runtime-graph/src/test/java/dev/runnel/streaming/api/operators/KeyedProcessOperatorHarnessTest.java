package dev.runnel.streaming.api.operators;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.functions.OpenContext;
import dev.runnel.api.common.state.ValueState;
import dev.runnel.api.common.state.ValueStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.runtime.state.KeyedStateHandle;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.functions.KeyedProcessFunction;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import dev.runnel.util.Collector;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Keyed state and timers of a KeyedProcessFunction, through the operator harness (no cluster). */
class KeyedProcessOperatorHarnessTest {

    /**
     * Commands: "key:set:T" registers an event-time timer at T, "key:del:T" deletes it, "key:proc:T"
     * registers a processing-time timer, "key:count" bumps a per-key counter. Timers emit what fired.
     */
    static final class Scripted extends KeyedProcessFunction<String, String, String> {
        private transient ValueState<Long> count;

        @Override
        public void open(OpenContext ctx) {
            count = getRuntimeContext().getState(new ValueStateDescriptor<>("count", Types.LONG));
        }

        @Override
        public void processElement(String command, Context ctx, Collector<String> out) throws Exception {
            String[] parts = command.split(":");
            switch (parts[1]) {
                case "set" -> ctx.timerService().registerEventTimeTimer(Long.parseLong(parts[2]));
                case "del" -> ctx.timerService().deleteEventTimeTimer(Long.parseLong(parts[2]));
                case "proc" -> ctx.timerService().registerProcessingTimeTimer(Long.parseLong(parts[2]));
                case "count" -> {
                    Long c = count.value();
                    count.update(c == null ? 1 : c + 1);
                    out.collect(ctx.getCurrentKey() + "=" + count.value());
                }
                default -> throw new IllegalArgumentException(command);
            }
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) {
            out.collect((ctx.timeDomain() == TimeDomain.EVENT_TIME ? "event " : "proc ") + ctx.getCurrentKey() + "@" + timestamp);
        }
    }

    private static KeyedOneInputStreamOperatorTestHarness<String, String, String> harness() throws Exception {
        var h = new KeyedOneInputStreamOperatorTestHarness<String, String, String>(
                new KeyedProcessOperator<>(new Scripted()), s -> s.split(":")[0], Types.STRING);
        h.open();
        return h;
    }

    @Test
    void eventTimersFireOnceAtTheRightWatermarkWithTheirKey() throws Exception {
        try (var h = harness()) {
            h.processElement("a:set:100", 1);
            h.processElement("b:set:50", 1);
            h.processElement("a:set:100", 2); // same timer again: still one
            h.processElement("b:set:150", 3);
            h.processWatermark(49);
            assertThat(h.extractOutputValues()).isEmpty();
            h.processWatermark(100);
            assertThat(h.extractOutputValues()).containsExactly("event b@50", "event a@100");
            h.processWatermark(120);
            assertThat(h.extractOutputValues()).containsExactly("event b@50", "event a@100");
            h.processWatermark(Long.MAX_VALUE);
            assertThat(h.extractOutputValues()).containsExactly("event b@50", "event a@100", "event b@150");
            // outputs of event-time timers carry the timer's timestamp
            assertThat(h.extractOutputStreamRecords()).extracting(StreamRecord::getTimestamp).containsExactly(50L, 100L, 150L);
        }
    }

    @Test
    void deletedTimersNeverFire() throws Exception {
        try (var h = harness()) {
            h.processElement("a:set:10", 1);
            h.processElement("a:set:20", 1);
            h.processElement("b:set:10", 1);
            h.processElement("a:del:10", 2);
            h.processElement("b:del:99", 2); // deleting a timer that does not exist is harmless
            h.processWatermark(Long.MAX_VALUE);
            assertThat(h.extractOutputValues()).containsExactly("event b@10", "event a@20");
        }
    }

    @Test
    void processingTimersFireWhenTheClockPassesThem() throws Exception {
        try (var h = harness()) {
            h.processElement("a:proc:1000");
            h.processElement("b:proc:500");
            h.setProcessingTime(499);
            assertThat(h.extractOutputValues()).isEmpty();
            h.setProcessingTime(1000);
            assertThat(h.extractOutputValues()).containsExactly("proc b@500", "proc a@1000");
            assertThat(h.extractOutputStreamRecords()).allMatch(r -> !r.hasTimestamp());
        }
    }

    @Test
    void stateIsPerKey() throws Exception {
        try (var h = harness()) {
            for (String c : List.of("a:count", "b:count", "a:count", "a:count", "b:count")) {
                h.processElement(c, 1);
            }
            assertThat(h.extractOutputValues()).containsExactly("a=1", "b=1", "a=2", "a=3", "b=2");
        }
    }

    @Test
    void stateAndTimersSurviveASnapshotAndARescale() throws Exception {
        KeyedStateHandle snapshot;
        List<String> keys = List.of("k1", "k2", "k3", "k4", "k5", "k6", "k7", "k8");
        try (var h = harness()) {
            for (String k : keys) {
                h.processElement(k + ":count", 1);
                h.processElement(k + ":set:500", 1);
            }
            snapshot = h.snapshot();
        }
        // Restore into two subtasks; each must get exactly the keys in its key groups.
        StringBuilder fired = new StringBuilder();
        int total = 0;
        for (int subtask = 0; subtask < 2; subtask++) {
            var h = new KeyedOneInputStreamOperatorTestHarness<String, String, String>(
                    new KeyedProcessOperator<>(new Scripted()), s -> s.split(":")[0], Types.STRING, 128, 2, subtask, null);
            h.initializeState(List.of(snapshot));
            h.open();
            for (String k : keys) {
                int owner = dev.runnel.runtime.state.KeyGroupRangeAssignment.assignKeyToParallelOperator(k, 128, 2);
                if (owner == subtask) {
                    h.processElement(k + ":count", 2);
                }
            }
            h.processWatermark(Long.MAX_VALUE);
            for (String out : h.extractOutputValues()) {
                fired.append(out).append(' ');
                total++;
            }
            h.close();
        }
        for (String k : keys) {
            assertThat(fired.toString()).contains(k + "=2").contains("event " + k + "@500");
        }
        assertThat(total).isEqualTo(2 * keys.size());
    }

    /** In onTimer: re-registers the firing timer once, and optionally deletes it again right away. */
    static final class ReRegistering extends KeyedProcessFunction<String, String, String> {
        private final boolean deleteAgain;
        private transient ValueState<Boolean> reRegistered;

        ReRegistering(boolean deleteAgain) {
            this.deleteAgain = deleteAgain;
        }

        @Override
        public void open(OpenContext ctx) {
            reRegistered = getRuntimeContext().getState(new ValueStateDescriptor<>("again", Types.BOOLEAN));
        }

        @Override
        public void processElement(String value, Context ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(10);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) throws Exception {
            out.collect("fired " + ctx.getCurrentKey() + "@" + timestamp);
            // deleting the timer that is firing is harmless
            ctx.timerService().deleteEventTimeTimer(timestamp);
            if (reRegistered.value() == null) {
                reRegistered.update(true);
                ctx.timerService().registerEventTimeTimer(timestamp);
                if (deleteAgain) {
                    ctx.timerService().deleteEventTimeTimer(timestamp);
                }
            }
        }
    }

    @Test
    void aTimerReRegisteredWhileFiringFiresAgainUnlessDeleted() throws Exception {
        for (boolean deleteAgain : new boolean[] {false, true}) {
            var h = new KeyedOneInputStreamOperatorTestHarness<String, String, String>(
                    new KeyedProcessOperator<>(new ReRegistering(deleteAgain)), s -> s, Types.STRING);
            h.open();
            h.processElement("k", 1);
            h.processWatermark(100);
            if (deleteAgain) {
                assertThat(h.extractOutputValues()).containsExactly("fired k@10");
            } else {
                assertThat(h.extractOutputValues()).containsExactly("fired k@10", "fired k@10");
            }
            h.processWatermark(Long.MAX_VALUE);
            assertThat(h.extractOutputValues()).hasSize(deleteAgain ? 1 : 2);
            h.close();
        }
    }
}
