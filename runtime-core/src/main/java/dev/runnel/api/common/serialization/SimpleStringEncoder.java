package dev.runnel.api.common.serialization;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.Charset;
import java.util.Objects;

/**
 * Writes each record as its {@code toString()} followed by {@code '\n'}, in a charset (UTF-8 unless
 * given). The terminator is the single byte {@code '\n'}, as in Flink, so the charset should be
 * ASCII-compatible (UTF-8, ISO-8859-1, ...). Stateless apart from the charset; thread-safe.
 *
 * @param <IN> the record type
 */
public class SimpleStringEncoder<IN> implements Encoder<IN> {

    private static final long serialVersionUID = 1L;

    private final String charsetName;
    private transient Charset charset;

    /** Writes UTF-8. */
    public SimpleStringEncoder() {
        this("UTF-8");
    }

    /**
     * @param charsetName a charset the JVM supports, e.g. {@code "UTF-8"}; not null
     * @throws java.nio.charset.UnsupportedCharsetException if the JVM lacks it
     */
    public SimpleStringEncoder(String charsetName) {
        this.charsetName = Objects.requireNonNull(charsetName, "charsetName");
        this.charset = Charset.forName(charsetName);
    }

    @Override
    public void encode(IN element, OutputStream stream) throws IOException {
        if (charset == null) {
            charset = Charset.forName(charsetName);
        }
        stream.write(element.toString().getBytes(charset));
        stream.write('\n');
    }
}
