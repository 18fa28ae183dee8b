package dev.runnel.streaming.api.graph;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.AggregateFunction;
import dev.runnel.api.common.InvalidProgramException;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.partitioner.ForwardPartitioner;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.operators.StreamMap;
import dev.runnel.streaming.api.operators.StreamSink;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import dev.runnel.streaming.api.windowing.assigners.TumblingEventTimeWindows;
import java.time.Duration;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

/** Every way a program can be invalid fails at build time with a message naming the operator and the fix. */
class ProgramValidationTest {

    private static StreamExecutionEnvironment env() {
        return StreamExecutionEnvironment.createLocalEnvironment(2);
    }

    @Test
    void aJobWithoutSink() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).map(x -> x).name("lonely");
        assertThatThrownBy(() -> env.getJobGraph("no-sink"))
                .isInstanceOf(InvalidProgramException.class)
                .hasMessageContaining("has no sink")
                .hasMessageContaining("print(), sinkTo(...) or addSink(...)");
    }

    @Test
    void forwardBetweenDifferentParallelisms() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).name("numbers").forward().map(x -> x).name("widen").setParallelism(4).print();
        assertThatThrownBy(() -> env.getJobGraph("forward"))
                .isInstanceOf(InvalidProgramException.class)
                .hasMessageContaining("'numbers' has parallelism 2")
                .hasMessageContaining("'widen' has 4")
                .hasMessageContaining("Use rebalance() (or rescale()");
    }

    @Test
    void parallelismAboveMaxParallelism() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).keyBy(x -> x).reduce(Long::sum).name("totals").setParallelism(8).setMaxParallelism(4).print();
        assertThatThrownBy(() -> env.getJobGraph("maxp"))
                .isInstanceOf(InvalidProgramException.class)
                .hasMessageContaining("Operator 'totals' has parallelism 8, above its max parallelism 4");
    }

    @Test
    void maxParallelismAboveTheLimitFailsAtTheCallNamingTheOperator() {
        var huge = env().fromSequence(0, 10).map(x -> x).name("huge");
        assertThatThrownBy(() -> huge.setMaxParallelism(40_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessage("The max parallelism of operator 'huge' is 40000, outside the allowed range 1 to 32768"
                        + " (the number of key groups its keyed state can be split into). Pass a value in that range"
                        + " to setMaxParallelism(...), or leave it unset to let Runnel derive it from the parallelism.");
        assertThatThrownBy(() -> env().setMaxParallelism(40_000))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("[1, 32768]");
    }

    @Test
    void maxParallelismAboveTheLimitOnAKeyedOperatorNamesIt() {
        // A keyed edge applies the max parallelism while the graph is built; this used to fail there
        // with "maxParallelism must be in (0, 32768], was 40000", naming nothing.
        var totals = env().fromSequence(0, 10).keyBy(x -> x).reduce(Long::sum).name("totals");
        assertThatThrownBy(() -> totals.setMaxParallelism(40_000))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The max parallelism of operator 'totals' is 40000, outside the allowed range");
        assertThatThrownBy(() -> totals.setMaxParallelism(0))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageStartingWith("The max parallelism of operator 'totals' is 0, outside the allowed range 1 to 32768");
    }

    @Test
    void duplicateUids() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).map(x -> x).name("first").uid("shared").map(x -> x).name("second").uid("shared").print();
        assertThatThrownBy(() -> env.getJobGraph("uids"))
                .isInstanceOf(InvalidProgramException.class)
                .hasMessageContaining("The uid 'shared' is used by operator 'first' and by operator 'second'");
    }

    @Test
    void returnsMissingWhereErasureHidesTheType() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).map(x -> Tuple2.of(x, "v")).name("pairUp").print();
        // What failed, for which operator and why, then the fix once (the lambda's name is the compiler's).
        assertThatThrownBy(() -> env.getJobGraph("erasure"))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageMatching(aroundLambda(
                        "Cannot determine, for operator 'pairUp', the output type OUT of MapFunction (the lambda ",
                        " in " + ProgramValidationTest.class.getName() + "): the implementation produces the raw type "
                                + Tuple2.class.getName() + ", whose type arguments Java erased (it does so for every"
                                + " lambda). Add .returns(...) after 'pairUp', for example"
                                + " .returns(Types.TUPLE(Types.STRING, Types.INT)) or"
                                + " .returns(new TypeHint<Tuple2<String, Integer>>() {}), or implement the function as"
                                + " a class that names its type arguments."));
    }

    @Test
    void aKeyTypeHiddenByErasureNamesTheKeyByAndItsFix() {
        var numbers = env().fromSequence(0, 10).name("numbers");
        assertThatThrownBy(() -> numbers.keyBy(x -> Tuple2.of(x, x)))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessageMatching(aroundLambda(
                        "Cannot determine, for keyBy after 'numbers', the output type KEY of KeySelector (the lambda ",
                        " in " + ProgramValidationTest.class.getName() + "): the implementation produces the raw type "
                                + Tuple2.class.getName() + ", whose type arguments Java erased (it does so for every"
                                + " lambda). Pass the key type explicitly, for example keyBy(selector, Types.STRING)."));
    }

    /** An aggregate whose accumulator type nobody can know. */
    @SuppressWarnings({"rawtypes", "unchecked"})
    static final class RawAggregate implements AggregateFunction {
        @Override
        public Object createAccumulator() {
            return 0L;
        }

        @Override
        public Object add(Object value, Object accumulator) {
            return accumulator;
        }

        @Override
        public Object getResult(Object accumulator) {
            return accumulator;
        }

        @Override
        public Object merge(Object a, Object b) {
            return a;
        }
    }

    @Test
    @SuppressWarnings("unchecked")
    void anUnknownAccumulatorTypeNamesTheAggregateAndItsFix() {
        var windowed = env().fromSequence(0, 10).keyBy(x -> x % 2)
                .window(TumblingEventTimeWindows.of(Duration.ofMillis(10)));
        String raw = RawAggregate.class.getName();
        assertThatThrownBy(() -> windowed.aggregate(new RawAggregate()))
                .isInstanceOf(InvalidTypesException.class)
                .hasMessage("Cannot determine, for the accumulator of a window aggregate, the output type ACC of"
                        + " AggregateFunction " + raw + ": " + raw + " implements AggregateFunction as a raw type,"
                        + " without type arguments. Implement AggregateFunction in a (named or anonymous) class that"
                        + " gives it concrete type arguments, for example AggregateFunction<Event, Long, Double>.");
    }

    /** A regular expression for exactly {@code before}, a compiler-generated lambda name, then {@code after}. */
    private static String aroundLambda(String before, String after) {
        return Pattern.quote(before) + "lambda\\$[\\w$]+" + Pattern.quote(after);
    }

    @Test
    void returnsFixesTheErasedType() {
        StreamExecutionEnvironment env = env();
        env.fromSequence(0, 10).map(x -> Tuple2.of(x, "v")).returns(Types.TUPLE(Types.LONG, Types.STRING)).print();
        assertThat(env.getJobGraph("ok").getVertices()).hasSize(1);
    }

    @Test
    void aCycle() {
        StreamGraph graph = new StreamGraph("loop", new ExecutionConfig(), new Configuration(), null, 100, true);
        graph.addNode(StreamNode.of(1, "a", new StreamMap<Long, Long>(x -> x), 1, 128));
        graph.addNode(StreamNode.of(2, "b", new StreamMap<Long, Long>(x -> x), 1, 128));
        graph.addNode(StreamNode.of(3, "sink", new StreamSink<Long>(new DiscardingSink<>()), 1, 128));
        graph.addEdge(1, 2, new ForwardPartitioner<>(), null, 1);
        graph.addEdge(2, 1, new ForwardPartitioner<>(), null, 1);
        graph.addEdge(2, 3, new ForwardPartitioner<>(), null, 1);
        assertThatThrownBy(graph::topologicalOrder)
                .isInstanceOf(InvalidProgramException.class)
                .hasMessageContaining("contains a cycle through operators 'a', 'b'");
    }

    @Test
    void aFunctionThatCannotBeShipped() {
        Object notSerializable = new Object();
        assertThatThrownBy(() -> env().fromSequence(0, 1).map(x -> x + notSerializable.hashCode()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("not serializable")
                .hasMessageContaining("java.lang.Object");
    }
}
