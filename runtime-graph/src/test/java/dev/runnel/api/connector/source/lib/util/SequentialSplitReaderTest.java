package dev.runnel.api.connector.source.lib.util;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.connector.testutils.TestingReaderContext;
import dev.runnel.connector.testutils.TestingReaderOutput;
import dev.runnel.core.io.InputStatus;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/** The split queue, the requests to the enumerator and the availability of a sequential reader. */
class SequentialSplitReaderTest {

    /** A split of fixed records, resumable from {@code position}. */
    record ListSplit(String id, List<String> records, int position) implements SourceSplit {
        @Override
        public String splitId() {
            return id;
        }
    }

    /** Reads {@link ListSplit}s and logs every open and close. */
    static final class ListReader extends SequentialSplitReader<String, ListSplit> {
        final List<String> log = new ArrayList<>();
        private int position;

        ListReader(TestingReaderContext context) {
            super(context);
        }

        @Override
        protected void openSplit(ListSplit split) {
            log.add("open " + split.id());
            position = split.position();
        }

        @Override
        protected boolean emitNext(ListSplit split, ReaderOutput<String> output) {
            if (position == split.records().size()) {
                return false;
            }
            output.collect(split.records().get(position++));
            return true;
        }

        @Override
        protected ListSplit snapshotSplit(ListSplit split) {
            return new ListSplit(split.id(), split.records(), position);
        }

        @Override
        protected void closeSplit() {
            log.add("close");
        }
    }

    private final TestingReaderContext context = new TestingReaderContext(0, 1);
    private final ListReader reader = new ListReader(context);
    private final TestingReaderOutput<String> output = new TestingReaderOutput<>();

    @Test
    void asksOncePerWaitAndReadsSplitsInTheOrderGiven() throws Exception {
        reader.start();
        assertThat(context.splitRequests()).isEqualTo(1);
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.NOTHING_AVAILABLE);
        assertThat(context.splitRequests()).as("no second request while one is outstanding").isEqualTo(1);
        CompletableFuture<Void> waiting = reader.isAvailable();
        assertThat(waiting).isNotDone();

        reader.addSplits(List.of(new ListSplit("s1", List.of("a", "b"), 0), new ListSplit("s2", List.of("c"), 0)));
        assertThat(waiting).isDone();
        drainUntil(InputStatus.NOTHING_AVAILABLE);
        assertThat(output.records()).containsExactly("a", "b", "c");
        assertThat(reader.log).containsExactly("open s1", "close", "open s2", "close");
        assertThat(context.splitRequests()).as("asks again once the splits ran out").isEqualTo(2);
        assertThat(reader.isAvailable()).isNotDone();

        reader.notifyNoMoreSplits();
        assertThat(reader.isAvailable()).isDone();
        assertThat(reader.pollNext(output)).isEqualTo(InputStatus.END_OF_INPUT);
        assertThat(context.splitRequests()).isEqualTo(2);
    }

    @Test
    void snapshotsTheCurrentSplitWhereItIsThenThePendingOnes() throws Exception {
        reader.start();
        ListSplit second = new ListSplit("s2", List.of("c"), 0);
        reader.addSplits(List.of(new ListSplit("s1", List.of("a", "b"), 0), second));
        reader.pollNext(output); // opens s1
        reader.pollNext(output); // emits "a"
        assertThat(reader.snapshotState(1)).containsExactly(new ListSplit("s1", List.of("a", "b"), 1), second);
    }

    @Test
    void closeReleasesTheOpenSplitOnly() throws Exception {
        reader.start();
        reader.addSplits(List.of(new ListSplit("s1", List.of("a"), 0)));
        reader.pollNext(output);
        reader.close();
        reader.close();
        assertThat(reader.log).containsExactly("open s1", "close");
    }

    private void drainUntil(InputStatus expected) throws Exception {
        for (int i = 0; i < 100; i++) {
            if (reader.pollNext(output) == expected) {
                return;
            }
        }
        throw new AssertionError("the reader never returned " + expected);
    }
}
