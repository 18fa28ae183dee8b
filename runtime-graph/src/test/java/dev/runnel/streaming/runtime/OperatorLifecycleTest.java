package dev.runnel.streaming.runtime;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.functions.MapFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import dev.runnel.streaming.api.operators.AbstractStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class OperatorLifecycleTest {

    static final List<String> CALLS = Collections.synchronizedList(new ArrayList<>());

    /** Records every lifecycle call it receives. */
    static final class Recording extends AbstractStreamOperator<Long> implements OneInputStreamOperator<Long, Long> {
        @Override
        public void initializeState() throws Exception {
            CALLS.add("initializeState");
            super.initializeState();
        }

        @Override
        public void open() throws Exception {
            CALLS.add("open");
        }

        @Override
        public void processElement(StreamRecord<Long> element) {
            CALLS.add("element " + element.getValue());
            output.collect(element);
        }

        @Override
        public void processWatermark(Watermark mark) throws Exception {
            CALLS.add("watermark " + (mark.getTimestamp() == Long.MAX_VALUE ? "MAX" : mark.getTimestamp()));
            super.processWatermark(mark);
        }

        @Override
        public void finish() {
            CALLS.add("finish");
        }

        @Override
        public void close() throws Exception {
            CALLS.add("close");
            super.close();
        }
    }

    @Test
    void operatorsSeeFlinksLifecycleAndTheFinalWatermark() throws Exception {
        CALLS.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromElements(1L, 2L, 3L).transform("recording", Types.LONG, new Recording()).addSink(new SinkFunction<>() {});
        env.execute("lifecycle");
        assertThat(CALLS).containsExactly("initializeState", "open", "element 1", "element 2", "element 3",
                "watermark MAX", "finish", "close");
    }

    /** Emits the same, reused tuple object for every word: legal when object reuse is off. */
    static final class ReusingSplitter implements dev.runnel.api.common.functions.FlatMapFunction<String, Tuple2<String, Integer>> {
        private final Tuple2<String, Integer> reuse = new Tuple2<>();

        @Override
        public void flatMap(String line, Collector<Tuple2<String, Integer>> out) {
            for (String w : line.split(" ")) {
                reuse.f0 = w;
                reuse.f1 = w.length();
                out.collect(reuse);
            }
        }
    }

    static final List<Tuple2<String, Integer>> KEPT = Collections.synchronizedList(new ArrayList<>());

    /** Keeps the objects it receives, as a buffering operator would. */
    static final class Keeper implements MapFunction<Tuple2<String, Integer>, Tuple2<String, Integer>> {
        @Override
        public Tuple2<String, Integer> map(Tuple2<String, Integer> value) {
            KEPT.add(value);
            return value;
        }
    }

    @Test
    void withObjectReuseOffChainedOperatorsGetTheirOwnCopies() throws Exception {
        KEPT.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromElements("a bb ccc").flatMap(new ReusingSplitter()).map(new Keeper()).addSink(new SinkFunction<>() {});
        env.execute("copies");
        assertThat(KEPT).extracting(t -> t.f0).containsExactly("a", "bb", "ccc");
    }

    @Test
    void withObjectReuseOnChainedOperatorsShareTheObject() throws Exception {
        KEPT.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().enableObjectReuse();
        env.fromElements("a bb ccc").flatMap(new ReusingSplitter()).map(new Keeper()).addSink(new SinkFunction<>() {});
        env.execute("reuse");
        assertThat(KEPT).hasSize(3);
        assertThat(KEPT.get(0)).isSameAs(KEPT.get(2));
        assertThat(KEPT.get(0).f0).isEqualTo("ccc");
    }

    @Test
    void acrossTasksMutableRecordsAreAlwaysCopies() throws Exception {
        KEPT.clear();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.getConfig().enableObjectReuse();
        env.fromElements("a bb ccc").flatMap(new ReusingSplitter()).rebalance().map(new Keeper()).setParallelism(1)
                .disableChaining().addSink(new SinkFunction<>() {});
        env.execute("network");
        assertThat(KEPT).extracting(t -> t.f0).containsExactly("a", "bb", "ccc");
    }
}
