package dev.runnel.connector.file.src;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.connector.testutils.TestingEnumeratorContext;
import dev.runnel.core.fs.Path;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.util.CloseableIterator;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code FileSource.forRecordStreamFormat(...).monitorContinuously(interval)}, used as Flink's
 * WordCount uses it for {@code --discovery-interval}: the paths are listed again every interval, each
 * new file is read once, and the source does not end.
 */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class ContinuousFileSourceTest {

    @TempDir
    java.nio.file.Path dir;

    private FileSource<String> watching() {
        return FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(dir.toString()))
                .monitorContinuously(Duration.ofMillis(50)).build();
    }

    private void write(String name, String text) throws IOException {
        // Written aside and moved in, so a listing never sees half a file.
        java.nio.file.Path tmp = dir.resolveSibling(dir.getFileName() + "-" + name + ".tmp");
        Files.writeString(tmp, text, StandardCharsets.UTF_8);
        Files.move(tmp, dir.resolve(name));
    }

    @Test
    void isUnboundedOnlyWhenMonitoring() {
        assertThat(watching().getBoundedness()).isEqualTo(Boundedness.CONTINUOUS_UNBOUNDED);
        assertThat(FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(dir.toString()))
                .monitorContinuously(Duration.ofSeconds(1)).processStaticFileSet().build().getBoundedness())
                .isEqualTo(Boundedness.BOUNDED);
        assertThatThrownBy(() -> FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(dir.toString()))
                .monitorContinuously(Duration.ZERO)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("at least 1 ms");
    }

    @Test
    void handsOutEachNewFileOnceAndNeverSignalsTheEnd() throws Exception {
        write("a.txt", "a1\n");
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(2);
        SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> enumerator = watching().createEnumerator(context);
        enumerator.start();
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(1, null);
        assertThat(context.allAssigned()).isEmpty(); // nothing listed before the first scheduled call

        context.runScheduledCalls();
        assertThat(names(context.assignedTo(0))).containsExactly("a.txt");
        assertThat(context.assignedTo(1)).isEmpty(); // reader 1 keeps waiting

        write("b.txt", "b1\n");
        context.runScheduledCalls();
        context.runScheduledCalls(); // listing again finds nothing new
        assertThat(names(context.assignedTo(1))).containsExactly("b.txt");
        assertThat(context.noMoreSplitsSignalled(0) || context.noMoreSplitsSignalled(1)).isFalse();
    }

    @Test
    void aRestoredEnumeratorRemembersWhatItHandedOut() throws Exception {
        write("a.txt", "a1\n");
        write("b.txt", "b1\n");
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> enumerator = watching().createEnumerator(context);
        enumerator.start();
        context.runScheduledCalls();
        enumerator.handleSplitRequest(0, null); // a.txt handed out, b.txt pending
        Collection<FileSourceSplit> checkpoint = FileSourceSplitSerializer.pendingSplitsSerializer().deserialize(
                1, FileSourceSplitSerializer.pendingSplitsSerializer().serialize(enumerator.snapshotState(1)));

        write("c.txt", "c1\n");
        TestingEnumeratorContext<FileSourceSplit> restoredContext = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> restored =
                watching().restoreEnumerator(restoredContext, checkpoint);
        restored.start();
        restored.handleSplitRequest(0, null);
        restored.handleSplitRequest(0, null);
        restoredContext.runScheduledCalls();
        restored.handleSplitRequest(0, null);
        assertThat(names(restoredContext.assignedTo(0))).containsExactly("b.txt", "c.txt");
    }

    @Test
    void aJobReadsFilesAsTheyAppear() throws Exception {
        write("first.txt", "one\ntwo\n");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        List<String> lines = new ArrayList<>();
        try (CloseableIterator<String> it = env.fromSource(watching(), WatermarkStrategy.noWatermarks(), "watched")
                .executeAndCollect()) {
            while (lines.size() < 2) {
                lines.add(it.next());
            }
            assertThat(lines).containsExactlyInAnyOrder("one", "two");
            write("second.txt", "three\n");
            assertThat(it.next()).isEqualTo("three");
        }
    }

    @Test
    void aMissingPathFailsTheJobNamingIt() {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(1);
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(),
                new Path(dir.resolve("missing").toString())).monitorContinuously(Duration.ofMillis(20)).build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "watched").print();
        assertThatThrownBy(env::execute).hasStackTraceContaining("missing does not exist");
    }

    private List<String> names(List<FileSourceSplit> splits) {
        return splits.stream().map(s -> java.nio.file.Path.of(s.path().toString()).getFileName().toString()).toList();
    }
}
