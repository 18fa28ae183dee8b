package dev.runnel.streaming.api.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.Collector;
import org.junit.jupiter.api.Test;

class ExecutionPlanTest {

    private static StreamExecutionEnvironment wordCount() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromElements("to be or not to be").name("lines")
                .flatMap((String line, Collector<String> out) -> {
                    for (String w : line.split(" ")) {
                        out.collect(w);
                    }
                }).returns(Types.STRING).name("split")
                .map(w -> Tuple2.of(w, 1)).returns(Types.TUPLE(Types.STRING, Types.INT)).name("pair")
                .keyBy(t -> t.f0)
                .sum(1).name("count")
                .print().name("print");
        return env;
    }

    @Test
    void jsonListsVerticesOperatorsAndWhyEdgesAreNotChained() {
        String json = wordCount().getExecutionPlan();
        assertThat(json).contains("\"name\": \"lines\", \"parallelism\": 1")
                .contains("\"name\": \"split -> pair\", \"parallelism\": 2, \"maxParallelism\": 128")
                .contains("\"name\": \"count -> print\", \"parallelism\": 2")
                .contains("{\"name\": \"count\", \"id\": \"")
                .contains("\"keyed\": true")
                .contains("\"partitioner\": \"REBALANCE\", \"pattern\": \"ALL_TO_ALL\", \"notChainedBecause\": \"parallelism 1 \u2192 2\"")
                .contains("\"partitioner\": \"HASH\", \"pattern\": \"ALL_TO_ALL\", \"notChainedBecause\": \"keyBy: KeyGroup partitioner\"");
        assertThat(json.chars().filter(c -> c == '{').count()).isEqualTo(json.chars().filter(c -> c == '}').count());
    }

    @Test
    void dotRendersTheSameModel() {
        String dot = ExecutionPlan.toDot(wordCount().getJobGraph("wc"));
        assertThat(dot).startsWith("digraph \"wc\" {")
                .contains("[label=\"split\\npair\\nparallelism 2\"]")
                .contains("-> ")
                .contains("HASH / ALL_TO_ALL\\nkeyBy: KeyGroup partitioner")
                .endsWith("}\n");
    }

    @Test
    void quotesAreEscaped() {
        assertThat(ExecutionPlan.quote("a\"b\\c\nd")).isEqualTo("\"a\\\"b\\\\c\\nd\"");
    }
}
