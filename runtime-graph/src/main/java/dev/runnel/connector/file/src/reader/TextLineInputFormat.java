package dev.runnel.connector.file.src.reader;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.Charset;
import java.util.Arrays;
import java.util.Objects;

/**
 * Reads text files line by line: one {@code String} record per line, without its terminator. A line
 * ends at {@code "\n"}, {@code "\r\n"} or a lone {@code "\r"} (as {@code BufferedReader.readLine} has
 * it); a last line without a terminator is still a record, and a terminator at the very end of the
 * file does not start an empty record. Bytes that are not valid in the charset become U+FFFD.
 *
 * <p>The charset is UTF-8 unless given, and must be ASCII-compatible in its line terminators (each is
 * the single byte it is in ASCII): UTF-8, US-ASCII, ISO-8859-*, windows-125*, and the like. UTF-16 and
 * UTF-32 are rejected, because lines are found at the byte level so that the checkpointed position is
 * an exact byte offset.
 *
 * <p>Serializable configuration; thread-safe. Each {@link Reader} is task-thread-only.
 */
public class TextLineInputFormat implements StreamFormat<String> {

    private static final long serialVersionUID = 1L;

    /** How much of the file one read from the stream asks for. */
    static final int DEFAULT_BUFFER_SIZE = 64 * 1024;

    private final String charsetName;

    /** Reads UTF-8. */
    public TextLineInputFormat() {
        this("UTF-8");
    }

    /**
     * @param charsetName an ASCII-compatible charset the JVM supports, e.g. {@code "ISO-8859-1"}; not null
     * @throws IllegalArgumentException if the charset is unknown or its line terminators are not single
     *     ASCII bytes
     */
    public TextLineInputFormat(String charsetName) {
        this.charsetName = Objects.requireNonNull(charsetName, "charsetName");
        checkCharset(charsetName);
    }

    private static Charset checkCharset(String charsetName) {
        Charset charset;
        try {
            charset = Charset.forName(charsetName);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("TextLineInputFormat: unknown charset '" + charsetName + "'", e);
        }
        if (!charset.canEncode() || !Arrays.equals("\n".getBytes(charset), new byte[] {'\n'})
                || !Arrays.equals("\r".getBytes(charset), new byte[] {'\r'})) {
            throw new IllegalArgumentException("TextLineInputFormat cannot read " + charset.name()
                    + ": its line terminators are not single ASCII bytes. Use an ASCII-compatible charset such as"
                    + " UTF-8 or ISO-8859-1.");
        }
        return charset;
    }

    /** The charset lines are decoded with. */
    public String getCharsetName() {
        return charsetName;
    }

    @Override
    public TypeInformation<String> getProducedType() {
        return Types.STRING;
    }

    @Override
    public StreamFormat.Reader<String> createReader(InputStream stream, long offset) {
        return new Reader(stream, offset, Charset.forName(charsetName), DEFAULT_BUFFER_SIZE);
    }

    /** A reader with a chosen chunk size (tests use tiny ones to cross chunk boundaries). */
    static Reader createReader(InputStream stream, long offset, String charsetName, int bufferSize) {
        return new Reader(stream, offset, checkCharset(charsetName), bufferSize);
    }

    /**
     * Splits a byte stream into lines. Reads the stream one chunk at a time into its own buffer; a
     * line that spans chunks is gathered in a second, growing buffer. Task thread only.
     */
    public static final class Reader implements StreamFormat.Reader<String> {

        private final InputStream in;
        private final Charset charset;
        private final byte[] buffer;
        /** The file offset of {@code buffer[0]}. */
        private long bufferOffset;
        private int position;
        private int limit;
        private boolean endOfStream;
        /** The start of a line that spans chunks. */
        private byte[] partial = new byte[128];
        private int partialLength;

        Reader(InputStream in, long offset, Charset charset, int bufferSize) {
            if (bufferSize < 1) {
                throw new IllegalArgumentException("buffer size must be positive: " + bufferSize);
            }
            this.in = Objects.requireNonNull(in, "in");
            this.charset = charset;
            this.buffer = new byte[bufferSize];
            this.bufferOffset = offset;
        }

        @Override
        public String read() throws IOException {
            partialLength = 0;
            boolean started = false;
            while (true) {
                if (position == limit && !fill()) {
                    return started ? new String(partial, 0, partialLength, charset) : null;
                }
                started = true;
                int start = position;
                int i = start;
                while (i < limit && buffer[i] != '\n' && buffer[i] != '\r') {
                    i++;
                }
                if (i == limit) {
                    appendPartial(start, i - start);
                    position = limit;
                    continue;
                }
                String line;
                if (partialLength == 0) {
                    line = new String(buffer, start, i - start, charset);
                } else {
                    appendPartial(start, i - start);
                    line = new String(partial, 0, partialLength, charset);
                }
                byte terminator = buffer[i];
                position = i + 1;
                if (terminator == '\r' && (position < limit || fill()) && buffer[position] == '\n') {
                    position++;
                }
                return line;
            }
        }

        /** Reads the next chunk into the buffer; false at the end of the stream. */
        private boolean fill() throws IOException {
            if (endOfStream) {
                return false;
            }
            bufferOffset += limit;
            position = 0;
            limit = 0;
            int n;
            do {
                n = in.read(buffer, 0, buffer.length);
            } while (n == 0);
            if (n < 0) {
                endOfStream = true;
                return false;
            }
            limit = n;
            return true;
        }

        private void appendPartial(int from, int length) {
            if (partialLength + length > partial.length) {
                partial = Arrays.copyOf(partial, Math.max(partial.length * 2, partialLength + length));
            }
            System.arraycopy(buffer, from, partial, partialLength, length);
            partialLength += length;
        }

        @Override
        public long getCheckpointedOffset() {
            return bufferOffset + position;
        }

        /** Does not close the stream: the caller owns it. */
        @Override
        public void close() {}
    }
}
