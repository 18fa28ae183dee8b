package dev.runnel.streaming.api.functions.source;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.core.io.InputStatus;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.Reader;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;

/**
 * Reads a {@link SocketTextStreamSource}. A fetcher thread of its own connects, reads and splits
 * the text into a bounded queue (so a slow pipeline holds the socket back instead of filling the
 * heap); {@link #pollNext} hands queued records on without blocking the task thread.
 *
 * <p>Threads: the task thread calls the {@link SourceReader} methods; the fetcher only fills the
 * queue, completes the availability future, and records its end (and failure, if any).
 */
final class SocketTextStreamReader implements SourceReader<String, SocketTextStreamSource.SocketSplit> {

    private static final int QUEUE_CAPACITY = 1024;

    private final SourceReaderContext context;
    private final SocketTextStreamSource source;
    private final BlockingQueue<String> records = new ArrayBlockingQueue<>(QUEUE_CAPACITY);
    private final AtomicReference<CompletableFuture<Void>> availability =
            new AtomicReference<>(new CompletableFuture<>());
    private volatile boolean running = true;
    private volatile boolean fetcherDone;
    private volatile Throwable fetcherFailure;
    private volatile Socket currentSocket;
    private Thread fetcher;
    private boolean noMoreSplits;

    SocketTextStreamReader(SourceReaderContext context, SocketTextStreamSource source) {
        this.context = context;
        this.source = source;
    }

    @Override
    public void start() {
        context.sendSplitRequest();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<String> output) throws IOException {
        String record = records.poll();
        if (record != null) {
            output.collect(record);
            return InputStatus.MORE_AVAILABLE;
        }
        if (fetcherDone || (fetcher == null && noMoreSplits)) {
            return records.isEmpty() ? endOfInput() : InputStatus.MORE_AVAILABLE;
        }
        CompletableFuture<Void> current = availability.get();
        if (current.isDone()) {
            availability.compareAndSet(current, new CompletableFuture<>());
        }
        // Re-check after arming: a record or the end that arrived meanwhile must not be missed.
        return records.isEmpty() && !fetcherDone ? InputStatus.NOTHING_AVAILABLE : InputStatus.MORE_AVAILABLE;
    }

    private InputStatus endOfInput() throws IOException {
        Throwable failure = fetcherFailure;
        if (failure != null) {
            throw new IOException(failure.getMessage(), failure);
        }
        return InputStatus.END_OF_INPUT;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return availability.get();
    }

    @Override
    public void addSplits(List<SocketTextStreamSource.SocketSplit> splits) {
        if (!splits.isEmpty() && fetcher == null) {
            fetcher = new Thread(this::fetch, "Socket Stream reader " + source.hostname() + ":" + source.port());
            fetcher.setDaemon(true);
            fetcher.start();
        }
    }

    @Override
    public void notifyNoMoreSplits() {
        noMoreSplits = true;
        signal();
    }

    @Override
    public List<SocketTextStreamSource.SocketSplit> snapshotState(long checkpointId) {
        return List.of();
    }

    @Override
    public void close() throws InterruptedException {
        running = false;
        closeSocket();
        if (fetcher != null) {
            fetcher.interrupt();
            fetcher.join(5_000);
        }
    }

    // ------------------------------------------------------------------ fetcher thread

    /** Connects (and reconnects) and reads until the retries are used up or the reader closes. */
    private void fetch() {
        try {
            StringBuilder buffer = new StringBuilder();
            long connections = 0;
            while (running) {
                readConnection(buffer);
                connections++;
                if (!running || !retryAfter(connections)) {
                    break;
                }
            }
            if (running && buffer.length() > 0) {
                records.put(buffer.toString());
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        } catch (IOException | RuntimeException e) {
            if (running) {
                fetcherFailure = e;
            }
        } finally {
            fetcherDone = true;
            signal();
        }
    }

    private boolean retryAfter(long connections) throws InterruptedException {
        long maxRetries = source.maxNumRetries();
        if (maxRetries == -1 || connections < maxRetries) {
            Thread.sleep(source.delayBetweenRetries());
            return true;
        }
        return false;
    }

    private void readConnection(StringBuilder buffer) throws IOException, InterruptedException {
        try (Socket socket = new Socket()) {
            currentSocket = socket;
            connect(socket);
            Reader reader = new InputStreamReader(socket.getInputStream(), StandardCharsets.UTF_8);
            char[] chunk = new char[8192];
            for (int read; running && (read = readQuietlyOnClose(reader, chunk)) != -1; ) {
                buffer.append(chunk, 0, read);
                emitComplete(buffer);
            }
        } finally {
            currentSocket = null;
        }
    }

    private void connect(Socket socket) throws IOException {
        try {
            socket.connect(new InetSocketAddress(source.hostname(), source.port()));
        } catch (IOException e) {
            throw new IOException("Could not connect to socket " + source.hostname() + ":" + source.port() + ": "
                    + e.getMessage() + ". socketTextStream connects as a client: is a server listening there "
                    + "(for example 'nc -lk " + source.port() + "')?", e);
        }
    }

    /** A read that the reader's own close() interrupted counts as the end of the stream. */
    private int readQuietlyOnClose(Reader reader, char[] chunk) throws IOException {
        try {
            return reader.read(chunk);
        } catch (IOException e) {
            if (!running) {
                return -1;
            }
            throw e;
        }
    }

    /** Moves every complete record from the front of {@code buffer} to the queue. */
    private void emitComplete(StringBuilder buffer) throws InterruptedException {
        String delimiter = source.delimiter();
        for (int at; (at = buffer.indexOf(delimiter)) != -1; ) {
            String record = buffer.substring(0, at);
            if (delimiter.equals("\n") && record.endsWith("\r")) {
                record = record.substring(0, record.length() - 1);
            }
            buffer.delete(0, at + delimiter.length());
            records.put(record);
            signal();
        }
    }

    private void signal() {
        availability.get().complete(null);
    }

    private void closeSocket() {
        Socket socket = currentSocket;
        if (socket != null) {
            try {
                socket.close();
            } catch (IOException ignored) {
                // closing only to wake the fetcher
            }
        }
    }
}
