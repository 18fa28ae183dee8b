package dev.runnel.connector.file.src.reader;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeinfo.Types;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

@Timeout(value = 30, unit = TimeUnit.SECONDS)
class TextLineInputFormatTest {

    private static final String MIXED = "alpha\nbeta\r\ngamma\rdelta\n\nünïcødé ✓ 日本\r\n\r\nlast without newline";
    private static final List<String> MIXED_LINES = List.of("alpha", "beta", "gamma", "delta", "", "ünïcødé ✓ 日本", "",
            "last without newline");

    @ParameterizedTest(name = "chunk size {0}")
    @ValueSource(ints = {1, 2, 3, 5, 7, 64, 65536})
    void splitsLinesAtLfCrLfAndLoneCrWhateverTheChunkSize(int chunk) throws IOException {
        assertThat(readAll(MIXED.getBytes(StandardCharsets.UTF_8), 0, "UTF-8", chunk)).isEqualTo(MIXED_LINES);
    }

    @Test
    void aTrailingTerminatorDoesNotMakeAnEmptyLastLine() throws IOException {
        assertThat(readAll("a\nb\n".getBytes(StandardCharsets.UTF_8), 0, "UTF-8", 4)).containsExactly("a", "b");
        assertThat(readAll("a\r\n".getBytes(StandardCharsets.UTF_8), 0, "UTF-8", 2)).containsExactly("a");
        assertThat(readAll("\n".getBytes(StandardCharsets.UTF_8), 0, "UTF-8", 2)).containsExactly("");
        assertThat(readAll(new byte[0], 0, "UTF-8", 2)).isEmpty();
    }

    @Test
    void aLineLongerThanManyChunksIsReadWhole() throws IOException {
        String longLine = "x".repeat(100_000) + "é";
        byte[] bytes = (longLine + "\nshort").getBytes(StandardCharsets.UTF_8);
        assertThat(readAll(bytes, 0, "UTF-8", 1000)).containsExactly(longLine, "short");
    }

    @ParameterizedTest(name = "chunk size {0}")
    @ValueSource(ints = {1, 3, 8, 65536})
    void theCheckpointedOffsetResumesExactlyAfterEachLine(int chunk) throws IOException {
        byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);
        TextLineInputFormat.Reader reader = TextLineInputFormat.createReader(new ByteArrayInputStream(bytes), 0, "UTF-8", chunk);
        List<String> before = new ArrayList<>();
        for (int i = 0; i < MIXED_LINES.size(); i++) {
            long offset = reader.getCheckpointedOffset();
            List<String> resumed = readAll(Arrays.copyOfRange(bytes, (int) offset, bytes.length), offset, "UTF-8", chunk);
            assertThat(resumed).as("resuming at byte %s after %s", offset, before).isEqualTo(MIXED_LINES.subList(i, MIXED_LINES.size()));
            before.add(reader.read());
        }
        assertThat(reader.read()).isNull();
        assertThat(reader.getCheckpointedOffset()).isEqualTo(bytes.length);
    }

    @Test
    void aCrAtAChunkEndFollowedByLfIsOneTerminator() throws IOException {
        // chunk of 2: "a\r" | "\nb"; the offset after "a" must point past the LF.
        byte[] bytes = "a\r\nb".getBytes(StandardCharsets.US_ASCII);
        TextLineInputFormat.Reader reader = TextLineInputFormat.createReader(new ByteArrayInputStream(bytes), 0, "UTF-8", 2);
        assertThat(reader.read()).isEqualTo("a");
        assertThat(reader.getCheckpointedOffset()).isEqualTo(3);
        assertThat(reader.read()).isEqualTo("b");
        assertThat(reader.read()).isNull();
    }

    @Test
    void decodesWithTheConfiguredCharset() throws IOException {
        byte[] latin1 = "café\nnaïve".getBytes(StandardCharsets.ISO_8859_1);
        TextLineInputFormat format = new TextLineInputFormat("ISO-8859-1");
        StreamFormat.Reader<String> reader = format.createReader(new ByteArrayInputStream(latin1), 0);
        assertThat(reader.read()).isEqualTo("café");
        assertThat(reader.read()).isEqualTo("naïve");
        assertThat(reader.read()).isNull();
        assertThat(format.getProducedType()).isEqualTo(Types.STRING);
        assertThat(new TextLineInputFormat().getCharsetName()).isEqualTo("UTF-8");
    }

    @Test
    void rejectsCharsetsWhoseLineTerminatorsAreNotSingleBytes() {
        assertThatThrownBy(() -> new TextLineInputFormat("UTF-16")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("UTF-16").hasMessageContaining("ASCII-compatible");
        assertThatThrownBy(() -> new TextLineInputFormat("UTF-32LE")).isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new TextLineInputFormat("no-such-charset")).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("no-such-charset");
    }

    @Test
    void invalidBytesBecomeReplacementCharacters() throws IOException {
        byte[] bytes = {'o', 'k', (byte) 0xC3, '\n', 'x'};
        assertThat(readAll(bytes, 0, "UTF-8", 3)).containsExactly("ok\uFFFD", "x");
    }

    @Test
    void readsAStreamThatDeliversFewBytesPerRead() throws IOException {
        byte[] bytes = MIXED.getBytes(StandardCharsets.UTF_8);
        InputStream trickle = new ByteArrayInputStream(bytes) {
            @Override
            public synchronized int read(byte[] b, int off, int len) {
                return super.read(b, off, Math.min(len, 1));
            }
        };
        List<String> lines = new ArrayList<>();
        StreamFormat.Reader<String> reader = new TextLineInputFormat().createReader(trickle, 0);
        for (String line; (line = reader.read()) != null; ) {
            lines.add(line);
        }
        assertThat(lines).isEqualTo(MIXED_LINES);
    }

    private static List<String> readAll(byte[] bytes, long offset, String charset, int chunk) throws IOException {
        TextLineInputFormat.Reader reader = TextLineInputFormat.createReader(new ByteArrayInputStream(bytes), offset, charset, chunk);
        List<String> lines = new ArrayList<>();
        for (String line; (line = reader.read()) != null; ) {
            lines.add(line);
        }
        return lines;
    }
}
