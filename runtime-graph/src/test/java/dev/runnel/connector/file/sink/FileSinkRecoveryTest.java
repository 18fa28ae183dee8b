package dev.runnel.connector.file.sink;

import static dev.runnel.connector.file.sink.FileSinkTest.harness;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.serialization.SimpleStringEncoder;
import dev.runnel.api.connector.sink2.Committer;
import dev.runnel.connector.file.sink.committer.FileCommitter;
import dev.runnel.connector.file.sink.writer.FileWriterBucketState;
import dev.runnel.connector.file.sink.writer.FileWriterBucketStateSerializer;
import dev.runnel.core.fs.Path;
import dev.runnel.runtime.checkpoint.OperatorSubtaskState;
import dev.runnel.streaming.api.functions.sink.filesystem.RollingPolicy;
import dev.runnel.streaming.api.functions.sink.filesystem.bucketassigners.BasePathBucketAssigner;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.DefaultRollingPolicy;
import dev.runnel.streaming.api.functions.sink.filesystem.rollingpolicies.OnCheckpointRollingPolicy;
import dev.runnel.streaming.util.OneInputStreamOperatorTestHarness;
import java.io.IOException;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * The file sink's two-phase commit across checkpoints and failures, in the operator harness. A "crash" drops
 * the harness without closing it; recovery restores a new operator from the snapshot and replays the records
 * after the checkpoint, as a source restored from the same checkpoint would.
 */
@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSinkRecoveryTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void partsPendingAfterACheckpointAreInvisibleUntilItCompletes() throws Exception {
        try (var harness = harness(sink(OnCheckpointRollingPolicy.build()))) {
            harness.open();
            harness.processElement("a");
            harness.processElement("b");
            harness.snapshot(1, 10);
            assertThat(SinkFiles.visible(dir)).as("pending after the checkpoint").isEmpty();
            assertThat(SinkFiles.hidden(dir)).hasSize(1);

            harness.processElement("c");
            harness.snapshot(2, 20);
            harness.notifyOfAbortedCheckpoint(2);
            assertThat(SinkFiles.visible(dir)).as("an aborted checkpoint commits nothing").isEmpty();

            harness.notifyOfCompletedCheckpoint(1);
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("a\nb\n");

            harness.processElement("d");
            harness.snapshot(3, 30);
            harness.notifyOfCompletedCheckpoint(3); // also commits what checkpoint 2 prepared
            assertThat(SinkFiles.visibleContents(dir)).containsExactlyInAnyOrder("a\nb\n", "c\n", "d\n");
            assertThat(SinkFiles.hidden(dir)).isEmpty();
        }
    }

    @Test
    void aCrashBetweenSnapshotAndNotifyCommitsExactlyThoseFilesOnceOnRecovery() throws Exception {
        FileSink<String> sink = sink(OnCheckpointRollingPolicy.build());
        var first = harness(sink);
        first.open();
        feed(first, 1, 5);
        OperatorSubtaskState checkpoint = first.snapshot(1, 10);
        feed(first, 6, 8);
        first.prepareSnapshotPreBarrier(2); // the failed attempt even pushed its later records to disk
        // crash: the notification for checkpoint 1 never arrives, the operator is never closed

        assertThat(SinkFiles.visible(dir)).isEmpty();
        List<java.nio.file.Path> failedAttemptFiles = SinkFiles.hidden(dir);

        try (var second = harness(sink)) {
            second.initializeState(checkpoint, 1);
            second.open();
            assertThat(SinkFiles.visibleContents(dir)).as("restored committables are committed at once")
                    .containsExactly(lines(1, 5));
            feed(second, 6, 8); // replayed from the checkpoint on
            second.endInput();
            List<String> lines = new ArrayList<>();
            SinkFiles.visibleContents(dir).forEach(c -> lines.addAll(Arrays.asList(c.split("\n"))));
            assertThat(lines).containsExactlyInAnyOrderElementsOf(IntStream.rangeClosed(1, 8).mapToObj(i -> "r" + i).toList());
        }
        // The failed attempt's file for records 6..8 never became visible; it stays hidden, never committed.
        assertThat(SinkFiles.hidden(dir)).isNotEmpty().allSatisfy(f -> {
            assertThat(failedAttemptFiles).contains(f);
            assertThat(Files.readString(f)).isEqualTo("r6\nr7\nr8\n");
        });
    }

    @Test
    void aPartInProgressAtTheCheckpointIsCutBackAndContinuedAfterRecovery() throws Exception {
        FileSink<String> sink = sink(DefaultRollingPolicy.builder().build()); // never rolls these few bytes
        var first = harness(sink);
        first.open();
        feed(first, 1, 3);
        OperatorSubtaskState checkpoint = first.snapshot(1, 10);
        first.notifyOfCompletedCheckpoint(1);
        assertThat(SinkFiles.visible(dir)).as("a small part stays in progress across a checkpoint").isEmpty();
        feed(first, 4, 5);
        first.prepareSnapshotPreBarrier(2); // r4, r5 reach the in-progress file, then the crash

        try (var second = harness(sink)) {
            second.initializeState(checkpoint, 1);
            second.open();
            feed(second, 4, 6);
            second.endInput();
            assertThat(SinkFiles.visibleContents(dir)).as("one part, each record once")
                    .containsExactly(String.join("", lines(1, 6)));
            assertThat(SinkFiles.hidden(dir)).isEmpty();
        }
    }

    @Test
    void aRescaleMergesTwoSubtasksBucketsWithoutLosingEitherPart() throws Exception {
        FileSink<String> sink = sink(DefaultRollingPolicy.builder().build());
        List<OperatorSubtaskState> states = new ArrayList<>();
        for (int subtask = 0; subtask < 2; subtask++) {
            var old = new OneInputStreamOperatorTestHarness<String, Object>(
                    new dev.runnel.streaming.api.operators.sink.SinkWriterOperator<>(sink), 128, 2, subtask);
            old.open();
            old.processElement("s" + subtask);
            states.add(old.snapshot(1, 10)); // both subtasks have a part in progress in the same bucket
        }
        OperatorSubtaskState merged = new OperatorSubtaskState(List.of(), states.stream()
                .flatMap(s -> s.managedOperatorState().stream()).toList());

        try (var rescaled = new OneInputStreamOperatorTestHarness<String, Object>(
                new dev.runnel.streaming.api.operators.sink.SinkWriterOperator<>(sink), 128, 1, 0)) {
            rescaled.initializeState(merged, 1);
            rescaled.open();
            rescaled.processElement("after");
            rescaled.endInput();
            List<String> lines = new ArrayList<>();
            SinkFiles.visibleContents(dir).forEach(c -> lines.addAll(Arrays.asList(c.split("\n"))));
            assertThat(lines).containsExactlyInAnyOrder("s0", "s1", "after");
            assertThat(SinkFiles.visible(dir)).as("one part resumed, the other committed as it was").hasSize(2);
            assertThat(SinkFiles.hidden(dir)).isEmpty();
        }
    }

    @Test
    void recommittingAnAlreadyCommittedPartIsANoOp() throws Exception {
        FileSink<String> sink = sink(OnCheckpointRollingPolicy.build());
        var first = harness(sink);
        first.open();
        feed(first, 1, 2);
        OperatorSubtaskState checkpoint = first.snapshot(1, 10);
        first.notifyOfCompletedCheckpoint(1); // committed, then the crash before checkpoint 2
        List<java.nio.file.Path> committed = SinkFiles.visible(dir);
        assertThat(committed).hasSize(1);

        try (var second = harness(sink)) {
            second.initializeState(checkpoint, 1); // holds the same committable: committed again
            second.open();
            second.endInput();
            assertThat(SinkFiles.visible(dir)).isEqualTo(committed);
            assertThat(SinkFiles.visibleContents(dir)).containsExactly("r1\nr2\n");
        }
    }

    @Test
    void theCommitterRecognisesCommittedPartsAndNeverOverwrites() throws Exception {
        java.nio.file.Path pending = dir.resolve(".part-x-0.inprogress.y");
        java.nio.file.Path target = dir.resolve("part-x-0");
        Files.writeString(pending, "abc");
        FileCommitter committer = new FileCommitter();
        FileSinkCommittable committable = new FileSinkCommittable("", pending.toString(), target.toString(), 3);

        assertThat(commit(committer, committable)).isEqualTo("committed");
        assertThat(Files.readString(target)).isEqualTo("abc");
        assertThat(pending).doesNotExist();
        assertThat(commit(committer, committable)).as("renamed before: already committed").isEqualTo("already");

        Files.writeString(pending, "abc"); // a copy with the same bytes: committed, the copy goes away
        assertThat(commit(committer, committable)).isEqualTo("already");
        assertThat(pending).doesNotExist();

        Files.writeString(pending, "xyz");
        assertThat(commit(committer, committable)).startsWith("failed").contains("never overwrites");
        assertThat(Files.readString(target)).isEqualTo("abc");

        Files.delete(pending);
        Files.delete(target);
        assertThat(commit(committer, committable)).startsWith("failed").contains("gone");
    }

    @Test
    void aGoneInProgressFileFailsTheRecoveryNamingIt() throws Exception {
        FileSink<String> sink = sink(DefaultRollingPolicy.builder().build());
        var first = harness(sink);
        first.open();
        feed(first, 1, 1);
        OperatorSubtaskState checkpoint = first.snapshot(1, 10);
        java.nio.file.Path inProgress = SinkFiles.hidden(dir).get(0);
        Files.delete(inProgress);
        try (var second = harness(sink)) {
            assertThatThrownBy(() -> second.initializeState(checkpoint, 1)).hasMessageContaining(inProgress.toString())
                    .hasMessageContaining("gone");
        }
    }

    @Test
    void writerStateSurvivesItsSerializer() throws IOException {
        FileWriterBucketStateSerializer serializer = FileWriterBucketStateSerializer.INSTANCE;
        FileWriterBucketState withPart = new FileWriterBucketState("2024-05-01--13", "/out/2024-05-01--13",
                new FileWriterBucketState.InProgressFile("/out/.p.inprogress.u", "/out/p", 17, 42));
        FileWriterBucketState idle = new FileWriterBucketState("", "/out", null);
        for (FileWriterBucketState state : List.of(withPart, idle)) {
            assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(state))).isEqualTo(state);
        }
        FileSinkCommittable committable = new FileSinkCommittable("b", "/o/.p", "/o/p", 5);
        assertThat(FileSinkCommittableSerializer.INSTANCE.deserialize(1, FileSinkCommittableSerializer.INSTANCE
                .serialize(committable))).isEqualTo(committable);
        assertThatThrownBy(() -> serializer.deserialize(99, serializer.serialize(idle))).hasMessageContaining("version 99");
    }

    // ------------------------------------------------------------------ helpers

    private FileSink<String> sink(RollingPolicy<String, String> policy) {
        return FileSink.forRowFormat(new Path(dir.toString()), new SimpleStringEncoder<String>())
                .withBucketAssigner(new BasePathBucketAssigner<>())
                .withRollingPolicy(policy)
                .build();
    }

    private static void feed(OneInputStreamOperatorTestHarness<String, Object> harness, int from, int to) throws Exception {
        for (int i = from; i <= to; i++) {
            harness.processElement("r" + i);
        }
    }

    private static String[] lines(int from, int to) {
        return new String[] {IntStream.rangeClosed(from, to).mapToObj(i -> "r" + i + "\n").collect(Collectors.joining())};
    }

    /** Commits one committable and says what the committer signalled. */
    private static String commit(FileCommitter committer, FileSinkCommittable committable) throws IOException {
        String[] outcome = {"committed"};
        committer.commit(List.of(new Committer.CommitRequest<FileSinkCommittable>() {
            @Override
            public FileSinkCommittable getCommittable() {
                return committable;
            }

            @Override
            public int getNumberOfRetries() {
                return 0;
            }

            @Override
            public void signalFailedWithKnownReason(Throwable t) {
                outcome[0] = "failed known: " + t.getMessage();
            }

            @Override
            public void signalFailedWithUnknownReason(Throwable t) {
                outcome[0] = "failed: " + t.getMessage();
            }

            @Override
            public void retryLater() {
                outcome[0] = "retry";
            }

            @Override
            public void updateAndRetryLater(FileSinkCommittable c) {
                outcome[0] = "retry";
            }

            @Override
            public void signalAlreadyCommitted() {
                outcome[0] = "already";
            }
        }));
        return outcome[0];
    }
}
