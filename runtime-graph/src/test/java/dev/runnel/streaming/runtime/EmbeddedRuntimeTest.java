package dev.runnel.streaming.runtime;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.functions.RichMapFunction;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.core.execution.JobClient;
import dev.runnel.core.execution.JobExecutionException;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.ProcessFunction;
import dev.runnel.streaming.api.functions.co.CoMapFunction;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Stateless programs end to end on the embedded runtime, and how failures surface. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class EmbeddedRuntimeTest {

    private static <T> List<T> collect(DataStream<T> stream) throws Exception {
        List<T> out = new ArrayList<>();
        stream.executeAndCollect().forEachRemaining(out::add);
        return out;
    }

    @Test
    void unionDeliversBothInputs() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<Long> a = env.fromSequence(1, 1000);
        DataStream<Long> b = env.fromSequence(1001, 2000).map(x -> x).setParallelism(3);
        List<Long> all = collect(a.union(b));
        assertThat(all).hasSize(2000).doesNotHaveDuplicates();
        assertThat(all.stream().mapToLong(Long::longValue).sum()).isEqualTo(2000L * 2001 / 2);
    }

    @Test
    void connectSeesBothTypes() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<Long> numbers = env.fromSequence(1, 100);
        DataStream<String> words = env.fromElements("x", "y", "z");
        List<String> out = collect(numbers.connect(words).map(new Describe()));
        assertThat(out).hasSize(103);
        assertThat(out).filteredOn(s -> s.startsWith("n")).hasSize(100);
        assertThat(out).contains("w:x", "w:y", "w:z");
    }

    @Test
    void broadcastSendsEveryRecordToEverySubtask() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(3);
        List<String> out = collect(env.fromElements("a", "b").broadcast().map(new TagWithSubtask()));
        assertThat(out).containsExactlyInAnyOrder("a@0", "a@1", "a@2", "b@0", "b@1", "b@2");
    }

    @Test
    void partitionCustomRoutesByTheUsersPartitioner() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<String> out = collect(env.fromSequence(0, 99).setParallelism(1)
                .partitionCustom((Long key, int n) -> (int) (key % n), x -> x)
                .map(new TagNumberWithSubtask()).setParallelism(4));
        assertThat(out).hasSize(100);
        for (String s : out) {
            long value = Long.parseLong(s.substring(0, s.indexOf('@')));
            int subtask = Integer.parseInt(s.substring(s.indexOf('@') + 1));
            assertThat(subtask).as(s).isEqualTo((int) (value % 4));
        }
    }

    @Test
    void sideOutputsReachTheirConsumers() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        OutputTag<String> odd = new OutputTag<>("odd", Types.STRING);
        var evens = env.fromSequence(1, 20).process(new SplitOdd(odd));
        DataStream<String> odds = evens.getSideOutput(odd);
        List<String> all = collect(evens.map(x -> "even " + x).union(odds));
        assertThat(all).hasSize(20);
        assertThat(all).filteredOn(s -> s.startsWith("odd")).hasSize(10).contains("odd 1", "odd 19");
        assertThat(all).filteredOn(s -> s.startsWith("even")).hasSize(10).contains("even 2", "even 20");
    }

    @Test
    void bufferTimeoutZeroStillDeliversEverything() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setBufferTimeout(0);
        assertThat(collect(env.fromSequence(1, 5000).rebalance().map(x -> x))).hasSize(5000);
    }

    @Test
    void aUserFunctionThatThrowsFailsTheJobNamingOperatorSubtaskAndRecord() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 1000).map(x -> {
            if (x == 777) {
                throw new IllegalStateException("cannot handle " + x);
            }
            return x;
        }).name("fragile").print();
        assertThatThrownBy(() -> env.execute("failing"))
                .isInstanceOf(JobExecutionException.class)
                .hasMessageContaining("Job 'failing'")
                .hasMessageContaining("Operator 'fragile'")
                .hasMessageMatching("(?s).*in Sequence Source -> fragile -> Print to Std. Out \\([12]/2\\).*")
                .hasMessageContaining("failed on record '777'")
                .hasMessageContaining("cannot handle 777")
                .hasRootCauseInstanceOf(IllegalStateException.class)
                .cause().isInstanceOf(OperatorException.class);
    }

    @Test
    void aFailureDownstreamCancelsBlockedProducers() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.fromSequence(1, 50_000_000L).rebalance().map(x -> {
            if (x > 1000) {
                throw new RuntimeException("boom");
            }
            return x;
        }).name("slowFail").print();
        assertThatThrownBy(() -> env.execute("cancel")).isInstanceOf(JobExecutionException.class)
                .hasMessageContaining("Operator 'slowFail'");
    }

    @Test
    void longRecordTextIsTruncatedInErrors() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        env.fromElements("x".repeat(10_000)).map((String s) -> {
            if (s.length() > 5) {
                throw new IllegalArgumentException("nope");
            }
            return s;
        }).name("big").print();
        assertThatThrownBy(() -> env.execute("truncate"))
                .hasMessageContaining("... (10000 chars)")
                .satisfies(e -> assertThat(e.getMessage().length()).isLessThan(1000));
    }

    @Test
    void accumulatorsAreMergedAcrossSubtasks() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(3);
        env.fromSequence(1, 300).rebalance().addSink(new CountingSink());
        JobExecutionResult result = env.execute("acc");
        assertThat((Long) result.getAccumulatorResult("seen")).isEqualTo(300L);
        assertThat(result.getNetRuntime()).isGreaterThanOrEqualTo(0);
    }

    @Test
    void cancellingARunningJob() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        StreamExecutionEnvironment env2 = StreamExecutionEnvironment.createLocalEnvironment(2);
        env2.fromSequence(0, Long.MAX_VALUE).map(x -> x).addSink(new dev.runnel.streaming.api.functions.sink.DiscardingSink<>());
        JobClient client = env2.executeAsync("endless");
        Thread.sleep(200);
        client.cancel().get(30, TimeUnit.SECONDS);
        assertThat(client.getJobExecutionResult()).isCompletedExceptionally();
        assertThat(client.getJobStatus().get().name()).isEqualTo("CANCELED");
    }

    // ------------------------------------------------------------------ functions

    private static final class Describe implements CoMapFunction<Long, String, String> {
        @Override
        public String map1(Long value) {
            return "n" + value;
        }

        @Override
        public String map2(String value) {
            return "w:" + value;
        }
    }

    private static final class TagWithSubtask extends RichMapFunction<String, String> {
        @Override
        public String map(String value) {
            return value + "@" + getRuntimeContext().getIndexOfThisSubtask();
        }
    }

    private static final class TagNumberWithSubtask extends RichMapFunction<Long, String> {
        @Override
        public String map(Long value) {
            return value + "@" + getRuntimeContext().getIndexOfThisSubtask();
        }
    }

    private static final class SplitOdd extends ProcessFunction<Long, Long> {
        private final OutputTag<String> odd;

        SplitOdd(OutputTag<String> odd) {
            this.odd = odd;
        }

        @Override
        public void processElement(Long value, Context ctx, Collector<Long> out) {
            if (value % 2 == 0) {
                out.collect(value);
            } else {
                ctx.output(odd, "odd " + value);
            }
        }
    }

    private static final class CountingSink extends RichSinkFunction<Long> {
        @Override
        public void invoke(Long value) {
            getRuntimeContext().getLongCounter("seen").add(1L);
        }
    }

    @SuppressWarnings("unused")
    private static Map<String, Long> histogram(List<String> values) {
        Map<String, Long> h = new TreeMap<>();
        values.forEach(v -> h.merge(v, 1L, Long::sum));
        return h;
    }
}
