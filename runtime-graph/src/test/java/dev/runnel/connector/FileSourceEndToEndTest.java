package dev.runnel.connector;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.connector.file.src.FileSource;
import dev.runnel.connector.file.src.reader.TextLineInputFormat;
import dev.runnel.core.fs.Path;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.DiscardingSink;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/** The file source on the embedded runtime. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class FileSourceEndToEndTest {

    @TempDir
    java.nio.file.Path dir;

    @Test
    void readsEveryLineOfADirectoryExactlyOnce() throws Exception {
        write("a.txt", "apple\nbanana\n");
        write("b-empty.txt", "");
        write("c-no-trailing-newline.txt", "cherry\ndate");
        write("d-crlf.txt", "elder\r\nfig\r\n\r\n");
        write("e-unicode.txt", "grüße\n日本語 ✓\n");
        write("sub/f.txt", "apple\n"); // a duplicate line is a second record, not a duplicate delivery
        write(".hidden-g.txt", "must not be read\n");
        StringBuilder big = new StringBuilder();
        List<String> bigLines = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) {
            bigLines.add("line " + i);
            big.append("line ").append(i).append('\n');
        }
        write("z-big.txt", big.toString());

        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(dir.toString())).build();
        List<String> lines = new ArrayList<>();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "Files").executeAndCollect().forEachRemaining(lines::add);

        List<String> expected = new ArrayList<>(List.of("apple", "banana", "cherry", "date", "elder", "fig", "", "grüße",
                "日本語 ✓", "apple"));
        expected.addAll(bigLines);
        assertThat(lines).containsExactlyInAnyOrderElementsOf(expected);
    }

    @Test
    void aMissingInputPathFailsTheJobNamingThePath() {
        String missing = dir.resolve("does/not/exist").toString();
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(), new Path(missing)).build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "Missing").addSink(new DiscardingSink<>());
        assertThatThrownBy(env::execute).hasMessageContaining("Input path " + missing + " does not exist");
    }

    @Test
    void anEmptyDirectoryIsAnEmptyStream() throws Exception {
        Files.createDirectories(dir.resolve("empty/nested"));
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat(),
                new Path(dir.resolve("empty").toString())).build();
        List<String> lines = new ArrayList<>();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "Empty").executeAndCollect().forEachRemaining(lines::add);
        assertThat(lines).isEmpty();
    }

    @Test
    void moreReadersThanFilesStillEnd() throws Exception {
        write("only.txt", "x\ny\n");
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(4);
        FileSource<String> source = FileSource.forRecordStreamFormat(new TextLineInputFormat("ISO-8859-1"),
                new Path("file://" + dir.resolve("only.txt"))).build();
        List<String> lines = new ArrayList<>();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "One file").executeAndCollect().forEachRemaining(lines::add);
        assertThat(lines).containsExactlyInAnyOrder("x", "y");
    }

    private void write(String relative, String content) throws IOException {
        java.nio.file.Path file = dir.resolve(relative);
        Files.createDirectories(file.getParent());
        Files.write(file, content.getBytes(StandardCharsets.UTF_8));
    }
}
