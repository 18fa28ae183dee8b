package dev.runnel.streaming.api.functions.source;

import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.core.io.SimpleVersionedSerializer;
import dev.runnel.util.NetUtils;
import dev.runnel.util.Preconditions;
import java.io.IOException;
import java.util.List;

/**
 * The source behind {@code env.socketTextStream(host, port, delimiter, maxRetry)}: connects as a
 * client to a server socket and emits the text it sends (UTF-8) split at {@code delimiter}, with
 * the behaviour of Flink's {@code SocketTextStreamFunction}:
 * <ul>
 *   <li>With the delimiter {@code "\n"}, a {@code '\r'} before it is dropped too (Windows lines).
 *   <li>When the server closes the connection the source reconnects, after 500 ms, until it has
 *       connected {@code maxRetry} times in all ({@code 0} and {@code 1}: once; {@code -1}: forever).
 *       Then it emits what is left after the last delimiter, if anything, and ends.
 *   <li>A connection that cannot be established fails the job at once, with no retry.
 * </ul>
 *
 * <p>One split, read by one subtask (the environment gives this source parallelism 1; further
 * subtasks would end at once). Not fault tolerant: nothing is checkpointed, and what the server sent
 * before a failure is not replayed.
 */
public final class SocketTextStreamSource
        implements Source<String, SocketTextStreamSource.SocketSplit, Boolean> {

    private static final long serialVersionUID = 1L;

    /** How long the source waits before reconnecting, as in Flink. */
    public static final long DEFAULT_CONNECTION_RETRY_SLEEP = 500;

    private final String hostname;
    private final int port;
    private final String delimiter;
    private final long maxNumRetries;
    private final long delayBetweenRetries;

    public SocketTextStreamSource(String hostname, int port, String delimiter, long maxNumRetries) {
        this(hostname, port, delimiter, maxNumRetries, DEFAULT_CONNECTION_RETRY_SLEEP);
    }

    /**
     * @throws NullPointerException if the host name or delimiter is null
     * @throws IllegalArgumentException if the port is not in 1..65535, the delimiter is empty, or
     *     {@code maxNumRetries} is below -1
     */
    public SocketTextStreamSource(String hostname, int port, String delimiter, long maxNumRetries,
            long delayBetweenRetries) {
        this.hostname = Preconditions.checkNotNull(hostname, "hostname must not be null");
        Preconditions.checkArgument(NetUtils.isValidClientPort(port), "port is out of range: %s (valid: 1..65535)", port);
        this.port = port;
        this.delimiter = Preconditions.checkNotNull(delimiter, "delimiter must not be null");
        Preconditions.checkArgument(!delimiter.isEmpty(), "delimiter must not be empty; use \"\\n\" to read lines");
        Preconditions.checkArgument(maxNumRetries >= -1,
                "maxNumRetries must be zero or larger (num retries), or -1 (infinite retries), was %s", maxNumRetries);
        Preconditions.checkArgument(delayBetweenRetries >= 0, "delayBetweenRetries must be zero or positive");
        this.maxNumRetries = maxNumRetries;
        this.delayBetweenRetries = delayBetweenRetries;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.CONTINUOUS_UNBOUNDED;
    }

    @Override
    public SourceReader<String, SocketSplit> createReader(SourceReaderContext readerContext) {
        return new SocketTextStreamReader(readerContext, this);
    }

    @Override
    public SplitEnumerator<SocketSplit, Boolean> createEnumerator(SplitEnumeratorContext<SocketSplit> enumContext) {
        return new SingleSplitEnumerator(enumContext, false);
    }

    @Override
    public SplitEnumerator<SocketSplit, Boolean> restoreEnumerator(SplitEnumeratorContext<SocketSplit> enumContext,
            Boolean assigned) {
        return new SingleSplitEnumerator(enumContext, assigned);
    }

    @Override
    public SimpleVersionedSerializer<SocketSplit> getSplitSerializer() {
        return new FlagSerializer<>(new SocketSplit(), null);
    }

    @Override
    public SimpleVersionedSerializer<Boolean> getEnumeratorCheckpointSerializer() {
        return new FlagSerializer<>(Boolean.TRUE, Boolean.FALSE);
    }

    String hostname() {
        return hostname;
    }

    int port() {
        return port;
    }

    String delimiter() {
        return delimiter;
    }

    long maxNumRetries() {
        return maxNumRetries;
    }

    long delayBetweenRetries() {
        return delayBetweenRetries;
    }

    @Override
    public String toString() {
        return "Socket Stream " + hostname + ":" + port;
    }

    /** The one connection to read. */
    public static final class SocketSplit implements SourceSplit {
        @Override
        public String splitId() {
            return "socket";
        }
    }

    /** Gives the split to the first reader that asks, and "no more splits" to every other request. */
    private static final class SingleSplitEnumerator implements SplitEnumerator<SocketSplit, Boolean> {
        private final SplitEnumeratorContext<SocketSplit> context;
        private boolean assigned;

        SingleSplitEnumerator(SplitEnumeratorContext<SocketSplit> context, boolean assigned) {
            this.context = context;
            this.assigned = assigned;
        }

        @Override
        public void start() {}

        @Override
        public void handleSplitRequest(int subtaskId, String requesterHostname) {
            if (assigned) {
                context.signalNoMoreSplits(subtaskId);
            } else {
                assigned = true;
                context.assignSplit(new SocketSplit(), subtaskId);
            }
        }

        @Override
        public void addSplitsBack(List<SocketSplit> splits, int subtaskId) {
            assigned = assigned && splits.isEmpty();
        }

        @Override
        public void addReader(int subtaskId) {}

        @Override
        public Boolean snapshotState(long checkpointId) {
            return assigned;
        }

        @Override
        public void close() {}
    }

    /** Writes one of two values as one byte. */
    private static final class FlagSerializer<T> implements SimpleVersionedSerializer<T> {
        private final T one;
        private final T zero;

        FlagSerializer(T one, T zero) {
            this.one = one;
            this.zero = zero;
        }

        @Override
        public int getVersion() {
            return 1;
        }

        @Override
        public byte[] serialize(T value) {
            return new byte[] {(byte) (value == zero ? 0 : 1)};
        }

        @Override
        public T deserialize(int version, byte[] serialized) throws IOException {
            if (version != 1 || serialized.length != 1) {
                throw new IOException("Unknown socket source state (version " + version + ", " + serialized.length
                        + " bytes)");
            }
            return serialized[0] == 0 ? zero : one;
        }
    }
}
