package dev.runnel.connector.file.src;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.connector.testutils.SourceReaderDriver;
import dev.runnel.connector.testutils.TestingEnumeratorContext;
import dev.runnel.connector.testutils.TestingReaderContext;
import dev.runnel.core.fs.Path;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.util.InstantiationUtil;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class FileSourceTest {

    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    java.nio.file.Path dir;

    @Test
    void listsRegularNonHiddenFilesRecursivelyInPathOrder() throws IOException {
        write("b.txt", "b");
        write("a.txt", "a");
        write("sub/c.txt", "c");
        write("sub/deeper/d.txt", "d");
        write(".hidden", "x");
        write("_SUCCESS", "");
        write(".staging/e.txt", "x");
        write("_tmp/f.txt", "x");
        Files.createDirectories(dir.resolve("emptydir"));

        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> enumerator = source(dir.toString()).createEnumerator(context);
        enumerator.start();
        for (int i = 0; i < 5; i++) {
            enumerator.handleSplitRequest(0, null);
        }
        assertThat(context.assignedTo(0)).extracting(s -> dir.relativize(java.nio.file.Path.of(s.path().toString())).toString())
                .containsExactly("a.txt", "b.txt", "sub/c.txt", "sub/deeper/d.txt");
        assertThat(context.assignedTo(0)).extracting(FileSourceSplit::splitId).containsExactly("0", "1", "2", "3");
        assertThat(context.assignedTo(0)).allSatisfy(s -> {
            assertThat(s.offset()).isZero();
            assertThat(s.fileSize()).isEqualTo(1);
        });
        assertThat(context.noMoreSplitsSignalled(0)).isTrue();
    }

    @Test
    void aFilePathIsOneSplitAndSeveralPathsKeepTheirOrder() throws IOException {
        write("z.txt", "z");
        write("d/y.txt", "y");
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(2);
        SplitEnumerator<FileSourceSplit, ?> enumerator = source(dir.resolve("z.txt").toString(), "file://" + dir.resolve("d"))
                .createEnumerator(context);
        enumerator.start();
        enumerator.handleSplitRequest(1, null);
        enumerator.handleSplitRequest(0, null);
        enumerator.handleSplitRequest(0, null);
        assertThat(context.assignedTo(1)).extracting(s -> s.path().getName()).containsExactly("z.txt");
        assertThat(context.assignedTo(0)).extracting(s -> s.path().getName()).containsExactly("y.txt");
        assertThat(context.noMoreSplitsSignalled(0)).isTrue();
        assertThat(context.noMoreSplitsSignalled(1)).isFalse();
    }

    @Test
    void aMissingInputPathFailsWhenTheEnumeratorStartsNamingThePath() {
        String missing = dir.resolve("no/such/dir").toString();
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, ?> enumerator = source(missing).createEnumerator(context);
        assertThatThrownBy(enumerator::start).isInstanceOf(UncheckedIOException.class)
                .hasMessage("Input path " + missing + " does not exist");
        enumerator.handleSplitRequest(0, null); // ignored: the job is failing
        assertThat(context.allAssigned()).isEmpty();
    }

    @Test
    void anEmptyDirectoryHasNoSplits() throws Exception {
        Files.createDirectories(dir.resolve("empty"));
        List<String> lines = readAll(source(dir.resolve("empty").toString()), 1);
        assertThat(lines).isEmpty();
    }

    @Test
    void readersReadEveryLineOfEveryFileOnce() throws Exception {
        write("1.txt", "one\ntwo\n");
        write("2.txt", "");
        write("3.txt", "three\r\nfour");
        write("4/5.txt", "fünf ✓\n\nsix\n");
        List<String> lines = readAll(source(dir.toString()), 2);
        assertThat(lines).containsExactlyInAnyOrder("one", "two", "three", "four", "fünf ✓", "", "six");
    }

    @Test
    void aReaderCheckpointResumesMidFileWithoutLossOrDuplicates() throws Exception {
        write("a.txt", "a1\na2\na3\na4\n");
        write("b.txt", "b1\nb2\n");
        write("c.txt", "c1\n");
        FileSource<String> source = source(dir.toString());
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, Collection<FileSourceSplit>> enumerator = source.createEnumerator(context);
        enumerator.start();
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<String, FileSourceSplit> reader = source.createReader(readerContext);
        reader.start();
        SourceReaderDriver<String, FileSourceSplit> driver = new SourceReaderDriver<>(reader, enumerator, context, readerContext);
        driver.pollRecords(2, WAIT);
        assertThat(driver.records()).containsExactly("a1", "a2");

        SimpleVersionedSerializer<FileSourceSplit> splitSerializer = source.getSplitSerializer();
        List<FileSourceSplit> readerState = new ArrayList<>();
        for (FileSourceSplit split : reader.snapshotState(7)) {
            readerState.add(splitSerializer.deserialize(splitSerializer.getVersion(), splitSerializer.serialize(split)));
        }
        assertThat(readerState).singleElement().satisfies(s -> {
            assertThat(s.path().getName()).isEqualTo("a.txt");
            assertThat(s.offset()).isEqualTo(6);
        });
        SimpleVersionedSerializer<Collection<FileSourceSplit>> enumSerializer = source.getEnumeratorCheckpointSerializer();
        Collection<FileSourceSplit> enumState = enumSerializer.deserialize(enumSerializer.getVersion(),
                enumSerializer.serialize(enumerator.snapshotState(7)));
        assertThat(enumState).extracting(s -> s.path().getName()).containsExactly("b.txt", "c.txt");
        reader.close();

        FileSource<String> copy = InstantiationUtil.clone(source, "source");
        TestingEnumeratorContext<FileSourceSplit> context2 = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, ?> restoredEnumerator = copy.restoreEnumerator(context2, enumState);
        restoredEnumerator.start();
        TestingReaderContext readerContext2 = new TestingReaderContext(0, 1);
        SourceReader<String, FileSourceSplit> restored = copy.createReader(readerContext2);
        restored.addSplits(readerState);
        restored.start();
        List<String> rest = new SourceReaderDriver<>(restored, restoredEnumerator, context2, readerContext2).runToEnd(WAIT);
        restored.close();
        assertThat(rest).containsExactly("a3", "a4", "b1", "b2", "c1");
    }

    @Test
    void aFileThatVanishedAfterListingFailsTheReaderNamingTheFile() throws Exception {
        java.nio.file.Path file = write("gone.txt", "x\n");
        FileSource<String> source = source(dir.toString());
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, ?> enumerator = source.createEnumerator(context);
        enumerator.start();
        Files.delete(file);
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<String, FileSourceSplit> reader = source.createReader(readerContext);
        reader.start();
        assertThatThrownBy(() -> new SourceReaderDriver<>(reader, enumerator, context, readerContext).runToEnd(WAIT))
                .isInstanceOf(IOException.class).hasMessageContaining(file.toString()).hasMessageContaining("does not exist");
    }

    @Test
    void aFileThatCannotBeOpenedFailsTheReaderNamingTheFile() throws Exception {
        // A listed file that became a directory cannot be opened, even by root (permission bits would not
        // stop root, so they would make this test depend on who runs it).
        java.nio.file.Path file = write("turned-into-dir.txt", "x\n");
        FileSource<String> source = source(dir.toString());
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(1);
        SplitEnumerator<FileSourceSplit, ?> enumerator = source.createEnumerator(context);
        enumerator.start();
        Files.delete(file);
        Files.createDirectory(file);
        TestingReaderContext readerContext = new TestingReaderContext(0, 1);
        SourceReader<String, FileSourceSplit> reader = source.createReader(readerContext);
        reader.start();
        assertThatThrownBy(() -> new SourceReaderDriver<>(reader, enumerator, context, readerContext).runToEnd(WAIT))
                .isInstanceOf(IOException.class).hasMessageContaining(file.toString());
    }

    @Test
    void theSourceIsBoundedAndProducesStrings() {
        FileSource<String> source = source(dir.toString());
        assertThat(source.getBoundedness()).isEqualTo(Boundedness.BOUNDED);
        assertThat(source.getProducedType()).isEqualTo(Types.STRING);
        assertThat(source.getInputPaths()).containsExactly(new Path(dir.toString()));
        assertThatThrownBy(() -> FileSource.forRecordStreamFormat(new TextLineInputFormat()))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("at least one");
    }

    @Test
    void splitSerializerRoundTripsAndRejectsBadInput() throws IOException {
        FileSourceSplitSerializer serializer = FileSourceSplitSerializer.INSTANCE;
        FileSourceSplit split = new FileSourceSplit("17", new Path("/data/ünï cødé/file.txt"), 1234567890123L, 9876543210987L);
        byte[] bytes = serializer.serialize(split);
        assertThat(serializer.deserialize(serializer.getVersion(), bytes)).isEqualTo(split);

        assertThatThrownBy(() -> serializer.deserialize(99, bytes)).isInstanceOf(IOException.class).hasMessageContaining("99");
        assertThatThrownBy(() -> serializer.deserialize(1, Arrays.copyOf(bytes, bytes.length - 3)))
                .isInstanceOf(IOException.class);
        byte[] longer = Arrays.copyOf(bytes, bytes.length + 1);
        assertThatThrownBy(() -> serializer.deserialize(1, longer)).isInstanceOf(IOException.class)
                .hasMessageContaining("unexpected");
        assertThat(split.updateWithCheckpointedPosition(5)).satisfies(s -> {
            assertThat(s.offset()).isEqualTo(5);
            assertThat(s.splitId()).isEqualTo("17");
        });
    }

    @Test
    void pendingSplitsSerializerRoundTrips() throws IOException {
        List<FileSourceSplit> splits = List.of(new FileSourceSplit("0", new Path("/a"), 0, 10),
                new FileSourceSplit("1", new Path("file:///b"), 3, 4));
        SimpleVersionedSerializer<Collection<FileSourceSplit>> serializer = source("/x").getEnumeratorCheckpointSerializer();
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(splits))).containsExactlyElementsOf(splits);
        assertThat(serializer.deserialize(serializer.getVersion(), serializer.serialize(List.of()))).isEmpty();
    }

    // ------------------------------------------------------------------ helpers

    private static FileSource<String> source(String... paths) {
        return FileSource.forRecordStreamFormat(new TextLineInputFormat(),
                Arrays.stream(paths).map(Path::new).toArray(Path[]::new)).build();
    }

    private java.nio.file.Path write(String relative, String content) throws IOException {
        java.nio.file.Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
        return file;
    }

    /** Runs {@code parallelism} readers against one enumerator, each asking before any drains. */
    private static List<String> readAll(FileSource<String> source, int parallelism) throws Exception {
        TestingEnumeratorContext<FileSourceSplit> context = new TestingEnumeratorContext<>(parallelism);
        SplitEnumerator<FileSourceSplit, ?> enumerator = source.createEnumerator(context);
        enumerator.start();
        List<SourceReaderDriver<String, FileSourceSplit>> drivers = new ArrayList<>();
        List<SourceReader<String, FileSourceSplit>> readers = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            TestingReaderContext readerContext = new TestingReaderContext(i, parallelism);
            SourceReader<String, FileSourceSplit> reader = source.createReader(readerContext);
            reader.start();
            readers.add(reader);
            drivers.add(new SourceReaderDriver<>(reader, enumerator, context, readerContext));
        }
        List<String> all = new ArrayList<>();
        for (int i = 0; i < parallelism; i++) {
            all.addAll(drivers.get(i).runToEnd(WAIT));
            readers.get(i).close();
        }
        return all.stream().collect(Collectors.toList());
    }
}
