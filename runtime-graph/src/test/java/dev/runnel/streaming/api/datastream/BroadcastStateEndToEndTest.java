package dev.runnel.streaming.api.datastream;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.state.BroadcastState;
import dev.runnel.api.common.state.ListState;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.BroadcastProcessFunction;
import dev.runnel.streaming.api.functions.co.KeyedBroadcastProcessFunction;
import dev.runnel.util.CloseableIterator;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The broadcast state pattern as Flink's documentation uses it: rules broadcast to keyed events. */
@Timeout(value = 120, unit = TimeUnit.SECONDS)
class BroadcastStateEndToEndTest {

    /** Rule name to minimum amount. */
    static final MapStateDescriptor<String, Integer> RULES =
            new MapStateDescriptor<>("rules", Types.STRING, Types.INT);

    /**
     * Emits {@code user:amount>rule} for every event (user, amount) and rule with amount above the rule's
     * minimum, exactly once per pair whichever side arrives first: an event is checked against the rules
     * known so far and remembered; a new rule is checked against every remembered event of every key.
     */
    static final class MatchRules
            extends KeyedBroadcastProcessFunction<String, Tuple2<String, Integer>, Tuple2<String, Integer>, String> {
        static final ListStateDescriptor<Integer> SEEN = new ListStateDescriptor<>("seen", Types.INT);

        @Override
        public void processElement(Tuple2<String, Integer> event, ReadOnlyContext ctx, Collector<String> out)
                throws Exception {
            for (Map.Entry<String, Integer> rule : ctx.getBroadcastState(RULES).immutableEntries()) {
                emitIfMatches(ctx.getCurrentKey(), event.f1, rule.getKey(), rule.getValue(), out);
            }
            getRuntimeContext().getListState(SEEN).add(event.f1);
        }

        @Override
        public void processBroadcastElement(Tuple2<String, Integer> rule, Context ctx, Collector<String> out)
                throws Exception {
            ctx.getBroadcastState(RULES).put(rule.f0, rule.f1);
            ctx.applyToKeyedState(SEEN, (String user, ListState<Integer> seen) -> {
                for (Integer amount : seen.get()) {
                    emitIfMatches(user, amount, rule.f0, rule.f1, out);
                }
            });
        }

        private static void emitIfMatches(String user, int amount, String rule, int minimum, Collector<String> out) {
            if (amount > minimum) {
                out.collect(user + ":" + amount + ">" + rule);
            }
        }
    }

    private static List<String> collectSorted(DataStream<String> stream) throws Exception {
        List<String> out = new ArrayList<>();
        try (CloseableIterator<String> it = stream.executeAndCollect()) {
            it.forEachRemaining(out::add);
        }
        out.sort(null);
        return out;
    }

    private static DataStream<String> rulesJob(StreamExecutionEnvironment env) {
        KeyedStream<Tuple2<String, Integer>, String> events = env.fromData(
                        Tuple2.of("ann", 5), Tuple2.of("bob", 50), Tuple2.of("cid", 500), Tuple2.of("ann", 70))
                .keyBy(e -> e.f0);
        BroadcastStream<Tuple2<String, Integer>> rules =
                env.fromData(Tuple2.of("big", 10), Tuple2.of("huge", 100)).broadcast(RULES);
        return events.connect(rules).process(new MatchRules()).name("match rules");
    }

    @Test
    void rulesBroadcastToKeyedEventsMatchEveryPairOnce() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        assertThat(collectSorted(rulesJob(env))).containsExactly(
                "ann:70>big", "bob:50>big", "cid:500>big", "cid:500>huge");
    }

    @Test
    void theBroadcastSideIsTheSecondInputOverABroadcastEdge() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        rulesJob(env).print();
        assertThat(env.getExecutionPlan()).contains("\"to\": \"match rules\", \"partitioner\": \"BROADCAST\"");
        JobGraph job = env.getStreamGraph().getJobGraph();
        List<String> edges = new ArrayList<>();
        for (JobVertex vertex : job.getVertices()) {
            for (JobEdge edge : vertex.getOutputs()) {
                if (edge.getTargetOperatorName().equals("match rules")) {
                    edges.add(edge.getTargetInput() + " " + edge.getPartitioner());
                }
            }
        }
        assertThat(edges).containsExactlyInAnyOrder("1 HASH", "2 BROADCAST");
    }

    /** Reports, per subtask, every rule it received, and what happens when the event side tries to change the state. */
    static final class EveryInstanceSeesEveryRule
            extends BroadcastProcessFunction<String, Tuple2<String, Integer>, String> {
        @Override
        public void processElement(String value, ReadOnlyContext ctx, Collector<String> out) {
            try {
                ((BroadcastState<String, Integer>) ctx.getBroadcastState(RULES)).put(value, 0);
            } catch (Exception e) {
                out.collect(e.getClass().getSimpleName() + ": " + e.getMessage());
            }
        }

        @Override
        public void processBroadcastElement(Tuple2<String, Integer> rule, Context ctx, Collector<String> out)
                throws Exception {
            BroadcastState<String, Integer> state = ctx.getBroadcastState(RULES);
            state.put(rule.f0, rule.f1);
            int size = 0;
            for (Map.Entry<String, Integer> ignored : state.entries()) {
                size++;
            }
            out.collect("subtask " + getRuntimeContext().getTaskInfo().getIndexOfThisSubtask() + " got " + rule.f0
                    + (size == 2 ? " (has both)" : ""));
        }
    }

    @Test
    void everyParallelInstanceReceivesEveryBroadcastElementAndTheOtherSideCannotChangeTheState() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<String> out = env.fromData("x").rebalance()
                .connect(env.fromData(Tuple2.of("big", 10), Tuple2.of("huge", 100)).setParallelism(1).broadcast(RULES))
                .process(new EveryInstanceSeesEveryRule());
        assertThat(collectSorted(out)).containsExactly(
                "UnsupportedOperationException: Cannot put into broadcast state 'rules' in processElement(): the"
                        + " non-broadcast side may only read it. Change it in processBroadcastElement(), which every"
                        + " parallel instance runs for every broadcast element, so that all copies stay equal.",
                "subtask 0 got big", "subtask 0 got huge (has both)",
                "subtask 1 got big", "subtask 1 got huge (has both)");
    }

    @Test
    void aDescriptorNotGivenToBroadcastIsRefusedWithItsName() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        MapStateDescriptor<String, Integer> other = new MapStateDescriptor<>("other", Types.STRING, Types.INT);
        env.fromData("x").connect(env.fromData(Tuple2.of("big", 10)).broadcast(RULES))
                .process(new BroadcastProcessFunction<String, Tuple2<String, Integer>, String>() {
                    @Override
                    public void processElement(String value, ReadOnlyContext ctx, Collector<String> out) {}

                    @Override
                    public void processBroadcastElement(Tuple2<String, Integer> rule, Context ctx, Collector<String> out)
                            throws Exception {
                        ctx.getBroadcastState(other).put(rule.f0, rule.f1);
                    }
                })
                .print();
        assertThatThrownBy(() -> env.execute("unknown-descriptor"))
                .hasMessageContaining("There is no broadcast state 'other'. This operator has 'rules'; pass every"
                        + " descriptor you use to broadcast(...).");
    }

    @Test
    void aKeyedFunctionNeedsAKeyedStreamAndANonKeyedOneANonKeyedStream() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        BroadcastStream<Tuple2<String, Integer>> rules = env.fromData(Tuple2.of("big", 10)).broadcast(RULES);
        DataStream<Tuple2<String, Integer>> events = env.fromData(Tuple2.of("ann", 5));
        assertThatThrownBy(() -> events.connect(rules).process(new MatchRules()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A KeyedBroadcastProcessFunction can only be used on a keyed stream");
        assertThatThrownBy(() -> env.fromData("x").keyBy(s -> s).connect(rules).process(new EveryInstanceSeesEveryRule()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("A BroadcastProcessFunction can only be used on a non-keyed stream");
    }

    /** Registers an event-time timer per event; onTimer reports key, time and the rules it can read. */
    static final class TimerPerEvent
            extends KeyedBroadcastProcessFunction<String, Tuple2<String, Integer>, Tuple2<String, Integer>, String> {
        @Override
        public void processElement(Tuple2<String, Integer> event, ReadOnlyContext ctx, Collector<String> out) {
            ctx.timerService().registerEventTimeTimer(event.f1);
        }

        @Override
        public void processBroadcastElement(Tuple2<String, Integer> rule, Context ctx, Collector<String> out)
                throws Exception {
            ctx.getBroadcastState(RULES).put(rule.f0, rule.f1);
        }

        @Override
        public void onTimer(long timestamp, OnTimerContext ctx, Collector<String> out) throws Exception {
            out.collect(ctx.getCurrentKey() + "@" + timestamp + " " + ctx.timeDomain() + " " + ctx.timestamp()
                    + " rules=" + ctx.getBroadcastState(RULES).contains("big"));
        }
    }

    @Test
    void keyedTimersFireWithTheirKeyAndSeeTheBroadcastState() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<String> out = env.fromData(Tuple2.of("ann", 5), Tuple2.of("bob", 7)).keyBy(e -> e.f0)
                .connect(env.fromData(Tuple2.of("big", 10)).broadcast(RULES))
                .process(new TimerPerEvent());
        // timers fire on the final watermark, after both inputs ended, so the rule is known everywhere
        assertThat(collectSorted(out)).containsExactly("ann@5 EVENT_TIME 5 rules=true", "bob@7 EVENT_TIME 7 rules=true");
    }
}
