package dev.runnel.connector.testutils;

import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.core.io.InputStatus;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Plays the runtime for one reader and its enumerator on the test thread: relays split requests to
 * the enumerator and its answers back, polls, and waits on the availability future (bounded) when
 * the reader has nothing. Checks the non-blocking contract: NOTHING_AVAILABLE must come with a future
 * that completes later, and the driver fails if it does not within the timeout.
 */
public final class SourceReaderDriver<T, SplitT extends SourceSplit> {

    private final SourceReader<T, SplitT> reader;
    private final SplitEnumerator<SplitT, ?> enumerator;
    private final TestingEnumeratorContext<SplitT> enumContext;
    private final TestingReaderContext readerContext;
    private final TestingReaderOutput<T> output = new TestingReaderOutput<>();
    private int requestsRelayed;
    private int splitsDelivered;
    private boolean endSignalled;
    private int nothingAvailable;

    public SourceReaderDriver(SourceReader<T, SplitT> reader, SplitEnumerator<SplitT, ?> enumerator,
            TestingEnumeratorContext<SplitT> enumContext, TestingReaderContext readerContext) {
        this.reader = reader;
        this.enumerator = enumerator;
        this.enumContext = enumContext;
        this.readerContext = readerContext;
    }

    /** Polls until {@code records} more records were emitted or the input ended. */
    public InputStatus pollRecords(int records, Duration timeout) throws Exception {
        long deadline = System.nanoTime() + timeout.toNanos();
        int target = output.records().size() + records;
        InputStatus status = InputStatus.MORE_AVAILABLE;
        while (output.records().size() < target) {
            relay();
            status = reader.pollNext(output);
            if (status == InputStatus.END_OF_INPUT) {
                return status;
            }
            if (status == InputStatus.NOTHING_AVAILABLE) {
                nothingAvailable++;
                relay();
                long left = deadline - System.nanoTime();
                if (left <= 0) {
                    throw new TimeoutException("the reader made no progress within " + timeout);
                }
                if (!relayPending()) {
                    reader.isAvailable().get(left, TimeUnit.NANOSECONDS);
                }
            }
        }
        return status;
    }

    /** Polls until the reader reports END_OF_INPUT; returns everything it emitted. */
    public List<T> runToEnd(Duration timeout) throws Exception {
        InputStatus status = pollRecords(Integer.MAX_VALUE - output.records().size(), timeout);
        if (status != InputStatus.END_OF_INPUT) {
            throw new AssertionError("reader did not end");
        }
        return output.records();
    }

    private boolean relayPending() {
        return readerContext.splitRequests() > requestsRelayed
                || enumContext.assignedTo(readerContext.getIndexOfSubtask()).size() > splitsDelivered;
    }

    private void relay() {
        int subtask = readerContext.getIndexOfSubtask();
        while (requestsRelayed < readerContext.splitRequests()) {
            requestsRelayed++;
            enumerator.handleSplitRequest(subtask, null);
        }
        List<SplitT> assigned = enumContext.assignedTo(subtask);
        if (assigned.size() > splitsDelivered) {
            reader.addSplits(List.copyOf(assigned.subList(splitsDelivered, assigned.size())));
            splitsDelivered = assigned.size();
        }
        if (!endSignalled && enumContext.noMoreSplitsSignalled(subtask)) {
            endSignalled = true;
            reader.notifyNoMoreSplits();
        }
    }

    public List<T> records() {
        return output.records();
    }

    /** How often the reader answered NOTHING_AVAILABLE. */
    public int nothingAvailableCount() {
        return nothingAvailable;
    }
}
