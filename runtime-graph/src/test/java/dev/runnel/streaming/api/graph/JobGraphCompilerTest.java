package dev.runnel.streaming.api.graph;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.jobgraph.SubtaskWiring;
import dev.runnel.runtime.partitioner.DistributionPattern;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.co.CoMapFunction;
import dev.runnel.util.Collector;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Compiles sample programs and checks the exact job vertices, chains, edges, patterns and subtask
 * wiring, and the reasons the plan gives for every broken chain.
 */
class JobGraphCompilerTest {

    private static StreamExecutionEnvironment env(int parallelism) {
        return StreamExecutionEnvironment.createLocalEnvironment(parallelism);
    }

    /** "name(p): op1 -> op2" per vertex, in topological order. */
    private static List<String> vertices(JobGraph job) {
        return job.getVertices().stream()
                .map(v -> v.getName() + "(" + v.getParallelism() + "): "
                        + v.getOperators().stream().map(ChainedOperator::getName).collect(Collectors.joining(" | ")))
                .toList();
    }

    /** "from -> to PARTITIONER PATTERN [reason]" per job edge. */
    private static List<String> edges(JobGraph job) {
        return job.getVertices().stream().flatMap(v -> v.getOutputs().stream())
                .map(e -> e.getSourceOperatorName() + " -> " + e.getTargetOperatorName() + " " + e.getPartitioner()
                        + " " + e.getDistributionPattern() + " [" + e.getChainBreakReason() + "]")
                .toList();
    }

    @Test
    void wordCount() {
        StreamExecutionEnvironment env = env(2);
        env.fromSequence(1, 100).name("numbers")
                .flatMap((Long n, Collector<String> out) -> out.collect("w" + (n % 7))).returns(Types.STRING).name("split")
                .map(w -> Tuple2.of(w, 1)).returns(Types.TUPLE(Types.STRING, Types.INT)).name("pair")
                .keyBy(t -> t.f0)
                .sum(1).name("count")
                .print().name("print");
        JobGraph job = env.getJobGraph("wc");
        assertThat(vertices(job)).containsExactly(
                "numbers -> split -> pair(2): numbers | split | pair",
                "count -> print(2): count | print");
        assertThat(edges(job)).containsExactly("pair -> count HASH ALL_TO_ALL [keyBy: KeyGroup partitioner]");
        JobVertex counter = job.getVertices().get(1);
        assertThat(counter.getHead().getConfig().isKeyed()).isTrue();
        assertThat(counter.getMaxParallelism()).isEqualTo(128);
        assertThat(SubtaskWiring.consumersOf(DistributionPattern.ALL_TO_ALL, 2, 2, 0)).containsExactly(0, 1);
    }

    @Test
    void keyByWithMapAndFilterBeforeAndAfter() {
        StreamExecutionEnvironment env = env(3);
        env.fromSequence(0, 10).name("src")
                .map(x -> x + 1).name("inc")
                .filter(x -> x % 2 == 0).name("even")
                .keyBy(x -> x % 3)
                .reduce(Long::sum).name("sum")
                .map(x -> "v" + x).name("fmt")
                .filter(s -> !s.isEmpty()).name("nonEmpty")
                .print().name("out");
        JobGraph job = env.getJobGraph("keyed");
        assertThat(vertices(job)).containsExactly(
                "src -> inc -> even(3): src | inc | even",
                "sum -> fmt -> nonEmpty -> out(3): sum | fmt | nonEmpty | out");
        assertThat(edges(job)).containsExactly("even -> sum HASH ALL_TO_ALL [keyBy: KeyGroup partitioner]");
        assertThat(job.getVertices().get(1).getOperators().get(0).getConfig().isKeyed()).isTrue();
        assertThat(job.getVertices().get(1).getOperators().get(1).getConfig().isKeyed()).isFalse();
    }

    @Test
    void unionAndConnect() {
        StreamExecutionEnvironment env = env(2);
        DataStream<Long> a = env.fromSequence(0, 5).name("a");
        DataStream<Long> b = env.fromSequence(10, 15).name("b");
        DataStream<String> c = env.fromElements("x", "y").name("c");
        a.union(b).map(x -> x * 2).name("double")
                .connect(c)
                .map(new Merge()).name("merge")
                .print().name("out");
        JobGraph job = env.getJobGraph("union-connect");
        assertThat(vertices(job)).containsExactly(
                "a(2): a",
                "b(2): b",
                "c(1): c",
                "double(2): double",
                "merge -> out(2): merge | out");
        assertThat(edges(job)).containsExactlyInAnyOrder(
                "a -> double FORWARD POINTWISE ['double' has 2 input edges]",
                "b -> double FORWARD POINTWISE ['double' has 2 input edges]",
                "double -> merge FORWARD POINTWISE ['merge' has 2 input edges]",
                "c -> merge REBALANCE ALL_TO_ALL ['merge' has 2 input edges]");
        JobVertex merge = job.getVertices().get(4);
        assertThat(merge.getInputs()).extracting(JobEdge::getTargetInput).containsExactlyInAnyOrder(1, 2);
        assertThat(merge.getNumberOfInputs()).isEqualTo(2);
    }

    @Test
    void diamond() {
        StreamExecutionEnvironment env = env(2);
        DataStream<Long> source = env.fromSequence(0, 100).name("source");
        DataStream<Long> left = source.map(x -> x + 1).name("left");
        DataStream<Long> right = source.map(x -> x - 1).name("right");
        left.union(right).map(x -> x).name("join").print().name("sink");
        JobGraph job = env.getJobGraph("diamond");
        assertThat(vertices(job)).containsExactly(
                "source -> left -> right(2): source | left | right",
                "join -> sink(2): join | sink");
        assertThat(edges(job)).containsExactlyInAnyOrder(
                "left -> join FORWARD POINTWISE ['join' has 2 input edges]",
                "right -> join FORWARD POINTWISE ['join' has 2 input edges]");
        // Both branches fan out from the source operator inside one chain.
        ChainedOperator sourceOp = job.getVertices().get(0).getHead();
        assertThat(sourceOp.getChainedOutputs()).hasSize(2);
    }

    @Test
    void broadcast() {
        StreamExecutionEnvironment env = env(3);
        env.fromElements("config").name("cfg").broadcast().map(s -> s + "!").name("apply").print().name("out");
        JobGraph job = env.getJobGraph("bc");
        assertThat(vertices(job)).containsExactly("cfg(1): cfg", "apply -> out(3): apply | out");
        assertThat(edges(job)).containsExactly("cfg -> apply BROADCAST ALL_TO_ALL [parallelism 1 \u2192 3]");
        assertThat(job.getVertices().get(0).getOutputs().get(0).getPartitioner().isBroadcast()).isTrue();
    }

    @Test
    void rescaleBetweenTwoAndSix() {
        StreamExecutionEnvironment env = env(2);
        env.fromSequence(0, 100).name("src").rescale().map(x -> x).name("wide").setParallelism(6)
                .print().name("out").setParallelism(6);
        JobGraph job = env.getJobGraph("rescale");
        assertThat(vertices(job)).containsExactly("src(2): src", "wide -> out(6): wide | out");
        assertThat(edges(job)).containsExactly("src -> wide RESCALE POINTWISE [parallelism 2 \u2192 6]");
        DistributionPattern p = job.getVertices().get(0).getOutputs().get(0).getDistributionPattern();
        assertThat(SubtaskWiring.consumersOf(p, 2, 6, 0)).containsExactly(0, 1, 2);
        assertThat(SubtaskWiring.consumersOf(p, 2, 6, 1)).containsExactly(3, 4, 5);
        for (int consumer = 0; consumer < 6; consumer++) {
            assertThat(SubtaskWiring.producersOf(p, 2, 6, consumer)).containsExactly(consumer / 3);
        }
    }

    @Test
    void defaultPartitionerIsRebalanceWhenParallelismChanges() {
        StreamExecutionEnvironment env = env(2);
        env.fromSequence(0, 10).name("src").map(x -> x).name("m").setParallelism(4).print().name("out");
        JobGraph job = env.getJobGraph("rebalance");
        assertThat(edges(job)).containsExactly(
                "src -> m REBALANCE ALL_TO_ALL [parallelism 2 \u2192 4]",
                "m -> out REBALANCE ALL_TO_ALL [parallelism 4 \u2192 2]");
    }

    @Test
    void disableChainingAndStartNewChain() {
        StreamExecutionEnvironment env = env(2);
        env.fromSequence(0, 10).name("src")
                .map(x -> x).name("parse").disableChaining()
                .map(x -> x).name("enrich")
                .map(x -> x).name("score").startNewChain()
                .filter(x -> true).name("keep")
                .print().name("out");
        JobGraph job = env.getJobGraph("chains");
        assertThat(vertices(job)).containsExactly(
                "src(2): src",
                "parse(2): parse",
                "enrich(2): enrich",
                "score -> keep -> out(2): score | keep | out");
        assertThat(edges(job)).containsExactly(
                "src -> parse FORWARD POINTWISE [disableChaining() on 'parse']",
                "parse -> enrich FORWARD POINTWISE [disableChaining() on 'parse']",
                "enrich -> score FORWARD POINTWISE [startNewChain() on 'score']");
    }

    @Test
    void disableOperatorChainingForTheJob() {
        StreamExecutionEnvironment env = env(1);
        env.disableOperatorChaining();
        env.fromSequence(0, 1).name("s").map(x -> x).name("m").print().name("p");
        assertThat(edges(env.getJobGraph("x"))).containsExactly(
                "s -> m FORWARD POINTWISE [chaining disabled for the job (disableOperatorChaining())]",
                "m -> p FORWARD POINTWISE [chaining disabled for the job (disableOperatorChaining())]");
    }

    @Test
    void sideOutputsBecomeEdgesOrChainedOutputs() {
        StreamExecutionEnvironment env = env(2);
        dev.runnel.util.OutputTag<String> rejected = new dev.runnel.util.OutputTag<String>("rejected") {};
        var main = env.fromSequence(0, 10).name("src")
                .process(new SplitOdd(rejected)).name("split");
        main.print().name("good");
        main.getSideOutput(rejected).map(s -> s).name("bad").setParallelism(1).print().name("badOut").setParallelism(1);
        JobGraph job = env.getJobGraph("side");
        assertThat(vertices(job)).containsExactly("src -> split -> good(2): src | split | good", "bad -> badOut(1): bad | badOut");
        JobEdge side = job.getVertices().get(0).getOutputs().get(0);
        assertThat(side.getOutputTag()).isEqualTo(rejected);
        assertThat(side.getChainBreakReason()).isEqualTo("parallelism 2 \u2192 1");
    }

    private static final class Merge implements CoMapFunction<Long, String, String> {
        @Override
        public String map1(Long value) {
            return "n" + value;
        }

        @Override
        public String map2(String value) {
            return value;
        }
    }

    private static final class SplitOdd extends dev.runnel.streaming.api.functions.ProcessFunction<Long, Long> {
        private final dev.runnel.util.OutputTag<String> rejected;

        SplitOdd(dev.runnel.util.OutputTag<String> rejected) {
            this.rejected = rejected;
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Long> out) {
            if (value % 2 == 0) {
                out.collect(value);
            } else {
                ctx.output(rejected, "odd " + value);
            }
        }
    }
}
