package dev.runnel.streaming.api;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import org.junit.jupiter.api.Test;

/** Iterations were removed in Flink 2; Runnel refuses them at the call, saying what to use instead. */
class IterationsTest {

    private static final String MESSAGE = "DataStream.iterate() is not supported: Runnel does not run iterations "
            + "(feedback edges), as Flink 2 removed them (IterativeStream was deprecated in Flink 1.19). "
            + "Instead, keep the loop's state in a KeyedProcessFunction and re-process with timers, or, for a "
            + "real feedback loop, write the records to an external queue (e.g. a Kafka topic) the job reads again.";

    @Test
    void iterateFailsAtTheCallWithWhatToUseInstead() {
        DataStream<Long> numbers = StreamExecutionEnvironment.createLocalEnvironment(1).fromSequence(1, 3);
        assertThatThrownBy(numbers::iterate).isInstanceOf(UnsupportedOperationException.class).hasMessage(MESSAGE);
        assertThatThrownBy(() -> numbers.iterate(5000)).isInstanceOf(UnsupportedOperationException.class)
                .hasMessage(MESSAGE);
    }
}
