package dev.runnel.streaming.api.operators.sink;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.connector.sink2.Committer;
import dev.runnel.api.connector.sink2.CommitterInitContext;
import dev.runnel.api.connector.sink2.CommittingSinkWriter;
import dev.runnel.api.connector.sink2.Sink;
import dev.runnel.api.connector.sink2.SinkWriter;
import dev.runnel.api.connector.sink2.StatefulSinkWriter;
import dev.runnel.api.connector.sink2.SupportsCommitter;
import dev.runnel.api.connector.sink2.SupportsWriterState;
import dev.runnel.api.connector.sink2.WriterInitContext;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.streaming.util.OneInputStreamOperatorTestHarness;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/**
 * The two-phase commit protocol of {@link SinkWriterOperator} with a recording sink: which committables are
 * committed when, what survives a failure, and what each committer signal does.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class CommitterProtocolTest {

    /** Committed committables, in commit order (the sink runs in the test thread). */
    static final List<String> COMMITTED = new CopyOnWriteArrayList<>();
    /** Writer states restoreWriter received. */
    static final List<Integer> RESTORED = new CopyOnWriteArrayList<>();
    /** Watermarks the writer was given. */
    static final List<Long> WATERMARKS = new CopyOnWriteArrayList<>();

    @BeforeEach
    void reset() {
        COMMITTED.clear();
        RESTORED.clear();
        WATERMARKS.clear();
    }

    @Test
    void commitsEveryCheckpointUpToTheCompletedOneAndOnlyThen() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement("a");
            harness.snapshot(1, 1);
            harness.processElement("b");
            harness.snapshot(2, 2);
            harness.processElement("c");
            harness.snapshot(3, 3);
            assertThat(COMMITTED).isEmpty();

            harness.notifyOfCompletedCheckpoint(2);
            assertThat(COMMITTED).containsExactly("a", "b");
            assertThat(operator(harness).getPendingCommittables()).containsOnlyKeys(3L);

            harness.notifyOfCompletedCheckpoint(2); // a repeated notification commits nothing twice
            harness.notifyOfCompletedCheckpoint(3);
            assertThat(COMMITTED).containsExactly("a", "b", "c");
        }
    }

    @Test
    void theEndOfInputCommitsEverythingWithoutAnyCheckpoint() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement("a");
            harness.snapshot(1, 1); // never completes
            harness.processElement("b");
            harness.endInput();
            assertThat(COMMITTED).containsExactly("a", "b");
            assertThat(operator(harness).getPendingCommittables()).isEmpty();
        }
    }

    @Test
    void pendingCommittablesAndWriterStateSurviveACrashAfterTheSnapshot() throws Exception {
        var first = harness();
        first.open();
        first.processElement("a");
        first.processElement("b");
        OperatorSubtaskState checkpoint = first.snapshot(5, 1);
        first.processElement("lost"); // after the checkpoint: replayed, not restored
        // crash before notifyCheckpointComplete(5)

        try (var second = harness()) {
            second.initializeState(checkpoint, 5);
            second.open();
            assertThat(COMMITTED).containsExactly("a,b");
            assertThat(RESTORED).as("the writer state of checkpoint 5").containsExactly(2);
            second.processElement("c");
            second.endInput();
            assertThat(COMMITTED).containsExactly("a,b", "c");
        }
    }

    @Test
    void retriesUntilTheCommitterIsDoneAndDropsKnownFailures() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement("retry-twice");
            harness.processElement("known-failure");
            harness.snapshot(1, 1);
            harness.notifyOfCompletedCheckpoint(1);
            assertThat(COMMITTED).isEmpty();
            assertThat(operator(harness).getPendingCommittables()).as("retried with the next completed checkpoint")
                    .containsOnlyKeys(1L);
            harness.endInput(); // the second retry succeeds
            assertThat(COMMITTED).containsExactly("retry-twice");
        }
    }

    @Test
    void anUnknownFailureFailsTheSubtaskNamingTheCommittable() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement("boom");
            harness.snapshot(1, 1);
            assertThatThrownBy(() -> harness.notifyOfCompletedCheckpoint(1)).hasMessageContaining("could not commit boom")
                    .hasRootCauseMessage("unknown failure of boom");
        }
    }

    @Test
    void aCommitterThatAlwaysRetriesGivesUpAfterTheLimit() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processElement("retry-forever");
            assertThatThrownBy(harness::endInput).hasMessageContaining("gave up committing retry-forever after 10 retries");
        }
    }

    @Test
    void theWriterSeesWatermarksAndTheyGoDownstream() throws Exception {
        try (var harness = harness()) {
            harness.open();
            harness.processWatermark(42);
            assertThat(WATERMARKS).containsExactly(42L);
            assertThat(harness.getWatermarks()).extracting(w -> w.getTimestamp()).containsExactly(42L);
        }
    }

    @Test
    void aSinkWhoseWriterCannotPrepareCommitsFailsClearly() {
        Sink<String> broken = new BrokenSink();
        assertThatThrownBy(() -> new OneInputStreamOperatorTestHarness<>(new SinkWriterOperator<>(broken)).open())
                .hasMessageContaining("is not a CommittingSinkWriter");
    }

    // ------------------------------------------------------------------ the recording sink

    private static OneInputStreamOperatorTestHarness<String, Object> harness() {
        return new OneInputStreamOperatorTestHarness<>(new SinkWriterOperator<>(new RecordingSink()));
    }

    @SuppressWarnings("unchecked")
    private static SinkWriterOperator<String> operator(OneInputStreamOperatorTestHarness<String, Object> harness) {
        return (SinkWriterOperator<String>) harness.getOperator();
    }

    /** Each checkpoint's records as one committable "r1,r2"; its writer state is how many records it wrote. */
    static final class RecordingSink implements Sink<String>, SupportsCommitter<String>, SupportsWriterState<String, Integer> {
        private static final long serialVersionUID = 1L;

        @Override
        public RecordingWriter createWriter(WriterInitContext context) {
            return new RecordingWriter(0);
        }

        @Override
        public StatefulSinkWriter<String, Integer> restoreWriter(WriterInitContext context, Collection<Integer> states) {
            RESTORED.addAll(states);
            return new RecordingWriter(states.stream().mapToInt(Integer::intValue).sum());
        }

        @Override
        public SimpleVersionedSerializer<Integer> getWriterStateSerializer() {
            return new SimpleVersionedSerializer<>() {
                @Override
                public int getVersion() {
                    return 1;
                }

                @Override
                public byte[] serialize(Integer obj) {
                    return String.valueOf(obj).getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public Integer deserialize(int version, byte[] serialized) {
                    return Integer.valueOf(new String(serialized, StandardCharsets.UTF_8));
                }
            };
        }

        @Override
        public Committer<String> createCommitter(CommitterInitContext context) {
            return new Committer<>() {
                @Override
                public void commit(Collection<CommitRequest<String>> requests) {
                    for (CommitRequest<String> request : requests) {
                        String c = request.getCommittable();
                        if (c.equals("retry-twice") && request.getNumberOfRetries() < 2 || c.equals("retry-forever")) {
                            request.retryLater();
                        } else if (c.equals("known-failure")) {
                            request.signalFailedWithKnownReason(new IllegalStateException("timed out"));
                        } else if (c.equals("boom")) {
                            request.signalFailedWithUnknownReason(new IllegalStateException("unknown failure of boom"));
                        } else {
                            COMMITTED.add(c);
                        }
                    }
                }

                @Override
                public void close() {}
            };
        }

        @Override
        public SimpleVersionedSerializer<String> getCommittableSerializer() {
            return new SimpleVersionedSerializer<>() {
                @Override
                public int getVersion() {
                    return 1;
                }

                @Override
                public byte[] serialize(String obj) {
                    return obj.getBytes(StandardCharsets.UTF_8);
                }

                @Override
                public String deserialize(int version, byte[] serialized) {
                    return new String(serialized, StandardCharsets.UTF_8);
                }
            };
        }
    }

    static final class RecordingWriter implements StatefulSinkWriter<String, Integer>, CommittingSinkWriter<String, String> {
        private final List<String> buffer = new ArrayList<>();
        private int written;

        RecordingWriter(int written) {
            this.written = written;
        }

        @Override
        public void write(String element, Context context) {
            written++;
            buffer.add(element);
        }

        @Override
        public void flush(boolean endOfInput) {}

        @Override
        public void writeWatermark(dev.runnel.api.common.eventtime.Watermark watermark) {
            WATERMARKS.add(watermark.getTimestamp());
        }

        @Override
        public Collection<String> prepareCommit() {
            // Test records that steer the committer are committables of their own.
            List<String> committables = new ArrayList<>();
            List<String> plain = new ArrayList<>();
            for (String r : buffer) {
                (r.contains("-") || r.equals("boom") ? committables : plain).add(r);
            }
            if (!plain.isEmpty()) {
                committables.add(0, String.join(",", plain));
            }
            buffer.clear();
            return committables;
        }

        @Override
        public List<Integer> snapshotState(long checkpointId) {
            return List.of(written);
        }

        @Override
        public void close() {}
    }

    /** Claims a committer but its writer cannot prepare committables. */
    static final class BrokenSink implements Sink<String>, SupportsCommitter<String> {
        private static final long serialVersionUID = 1L;

        @Override
        public SinkWriter<String> createWriter(WriterInitContext context) {
            return new SinkWriter<>() {
                @Override
                public void write(String element, Context context) {}

                @Override
                public void flush(boolean endOfInput) {}

                @Override
                public void close() {}
            };
        }

        @Override
        public Committer<String> createCommitter(CommitterInitContext context) {
            throw new AssertionError("not reached");
        }

        @Override
        public SimpleVersionedSerializer<String> getCommittableSerializer() {
            throw new AssertionError("not reached");
        }
    }
}
