package dev.runnel.streaming.api;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.Collector;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class StatelessPipelineTest {

    @Test
    void mapFilterFlatMapOnTheEmbeddedRuntime() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        DataStream<String> words = env.fromElements("a b", "c d e", "f")
                .flatMap((String line, Collector<String> out) -> {
                    for (String w : line.split(" ")) {
                        out.collect(w);
                    }
                })
                .returns(Types.STRING)
                .filter(w -> !w.equals("c"))
                .map(String::toUpperCase);
        List<String> result = new ArrayList<>();
        words.executeAndCollect().forEachRemaining(result::add);
        assertThat(result).containsExactlyInAnyOrder("A", "B", "D", "E", "F");
    }

    @Test
    void sequenceAcrossParallelSubtasks() throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(3);
        List<Long> result = new ArrayList<>();
        env.fromSequence(1, 10_000).map(x -> x * 2).rebalance().executeAndCollect().forEachRemaining(result::add);
        assertThat(result).hasSize(10_000);
        assertThat(result.stream().mapToLong(Long::longValue).sum()).isEqualTo(10_000L * 10_001L);
    }
}
