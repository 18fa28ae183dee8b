package dev.runnel.streaming.runtime.operators.windowing;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.datastream.KeyedStream;
import dev.runnel.streaming.api.datastream.SingleOutputStreamOperator;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.transformations.PhysicalTransformation;
import dev.runnel.streaming.util.KeyedOneInputStreamOperatorTestHarness;
import java.util.function.Function;

/**
 * Window operators built with the DataStream API, as a job would build them, and opened in a keyed
 * harness: the records are {@code (key, value)} pairs keyed by the key.
 */
final class WindowHarness {

    static final TypeInformation<Tuple2<String, Integer>> PAIR = Types.TUPLE(Types.STRING, Types.INT);

    private WindowHarness() {}

    /** The operator {@code windowing} adds to a keyed stream of pairs, opened in a harness. */
    @SuppressWarnings("unchecked")
    static <R> KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Integer>, R> open(
            Function<KeyedStream<Tuple2<String, Integer>, String>, SingleOutputStreamOperator<R>> windowing) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        KeyedStream<Tuple2<String, Integer>, String> keyed = env.fromElements(Tuple2.of("x", 0)).returns(PAIR).keyBy(t -> t.f0);
        SingleOutputStreamOperator<R> windowed = windowing.apply(keyed);
        var operator = (OneInputStreamOperator<Tuple2<String, Integer>, R>)
                ((PhysicalTransformation<?>) windowed.getTransformation()).getOperator();
        var harness = new KeyedOneInputStreamOperatorTestHarness<String, Tuple2<String, Integer>, R>(
                operator, t -> t.f0, Types.STRING);
        harness.open();
        return harness;
    }
}
