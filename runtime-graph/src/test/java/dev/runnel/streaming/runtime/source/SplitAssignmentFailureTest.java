package dev.runnel.streaming.runtime.source;

import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.connector.source.lib.NumberSequenceSource;
import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import dev.runnel.configuration.Configuration;
import dev.runnel.core.io.InputStatus;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * A reader that rejects the splits it is assigned fails the job with a message naming the source and the splits,
 * although the splits are no longer described for every assignment that succeeds.
 */
@Timeout(60)
class SplitAssignmentFailureTest {

    @Test
    void aRejectedAssignmentNamesTheSourceAndTheSplits() {
        Configuration conf = new Configuration();
        conf.setString("restart-strategy.type", "none");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment(conf);
        env.setParallelism(1);
        env.fromSource(new RejectingSource(new NumberSequenceSource(1, 10)), WatermarkStrategy.noWatermarks(),
                        "rejecting-numbers")
                .addSink(new DiscardingSink<>());

        assertThatThrownBy(() -> env.execute("rejected splits"))
                .hasStackTraceContaining("split assignment")
                .hasStackTraceContaining("rejecting-numbers")
                .hasStackTraceContaining("failed to take splits [")
                .hasStackTraceContaining("no split wanted");
    }

    /** {@link NumberSequenceSource} with a reader that throws on every split it is given. */
    private static final class RejectingSource
            implements Source<Long, NumberSequenceSplit, Collection<NumberSequenceSplit>> {
        private final NumberSequenceSource numbers;

        RejectingSource(NumberSequenceSource numbers) {
            this.numbers = numbers;
        }

        @Override
        public Boundedness getBoundedness() {
            return Boundedness.BOUNDED;
        }

        @Override
        public SourceReader<Long, NumberSequenceSplit> createReader(SourceReaderContext context) {
            SourceReader<Long, NumberSequenceSplit> reader = numbers.createReader(context);
            return new SourceReader<>() {
                @Override
                public void start() {
                    reader.start();
                }

                @Override
                public InputStatus pollNext(ReaderOutput<Long> output) throws Exception {
                    return reader.pollNext(output);
                }

                @Override
                public CompletableFuture<Void> isAvailable() {
                    return reader.isAvailable();
                }

                @Override
                public void addSplits(List<NumberSequenceSplit> splits) {
                    throw new IllegalArgumentException("no split wanted");
                }

                @Override
                public void notifyNoMoreSplits() {
                    reader.notifyNoMoreSplits();
                }

                @Override
                public List<NumberSequenceSplit> snapshotState(long checkpointId) {
                    return reader.snapshotState(checkpointId);
                }

                @Override
                public void close() throws Exception {
                    reader.close();
                }
            };
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> createEnumerator(
                SplitEnumeratorContext<NumberSequenceSplit> context) throws Exception {
            return numbers.createEnumerator(context);
        }

        @Override
        public SplitEnumerator<NumberSequenceSplit, Collection<NumberSequenceSplit>> restoreEnumerator(
                SplitEnumeratorContext<NumberSequenceSplit> context, Collection<NumberSequenceSplit> checkpoint)
                throws Exception {
            return numbers.restoreEnumerator(context, checkpoint);
        }

        @Override
        public SimpleVersionedSerializer<NumberSequenceSplit> getSplitSerializer() {
            return numbers.getSplitSerializer();
        }

        @Override
        public SimpleVersionedSerializer<Collection<NumberSequenceSplit>> getEnumeratorCheckpointSerializer() {
            return numbers.getEnumeratorCheckpointSerializer();
        }
    }
}
