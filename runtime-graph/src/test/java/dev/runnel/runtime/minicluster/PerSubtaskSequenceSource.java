package dev.runnel.runtime.minicluster;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.api.connector.source.Boundedness;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.Source;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.SourceSplit;
import dev.runnel.api.connector.source.SplitEnumerator;
import dev.runnel.api.connector.source.SplitEnumeratorContext;
import dev.runnel.api.java.typeutils.ResultTypeQueryable;
import dev.runnel.core.io.InputStatus;
import dev.runnel.core.io.SimpleVersionedSerializer;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * A bounded source that needs no split assignment: reader {@code j} emits {@code j * 1e9 + s} with timestamp
 * {@code s} for {@code s} in {@code 0..count-1}. So each process of a job split over processes can run its own
 * enumerator and its readers still emit every record exactly once.
 */
final class PerSubtaskSequenceSource implements Source<Long, PerSubtaskSequenceSource.NoSplit, Integer>,
        ResultTypeQueryable<Long> {

    private static final long serialVersionUID = 1L;
    static final long PRODUCER_STRIDE = 1_000_000_000L;

    private final long count;

    PerSubtaskSequenceSource(long count) {
        this.count = count;
    }

    record NoSplit() implements SourceSplit {
        @Override
        public String splitId() {
            return "none";
        }
    }

    @Override
    public TypeInformation<Long> getProducedType() {
        return Types.LONG;
    }

    @Override
    public Boundedness getBoundedness() {
        return Boundedness.BOUNDED;
    }

    @Override
    public SourceReader<Long, NoSplit> createReader(SourceReaderContext context) {
        long base = context.getIndexOfSubtask() * PRODUCER_STRIDE;
        return new SourceReader<>() {
            private long next;

            @Override
            public void start() {}

            @Override
            public InputStatus pollNext(ReaderOutput<Long> output) {
                if (next >= count) {
                    return InputStatus.END_OF_INPUT;
                }
                output.collect(base + next, next);
                next++;
                return InputStatus.MORE_AVAILABLE;
            }

            @Override
            public CompletableFuture<Void> isAvailable() {
                return CompletableFuture.completedFuture(null);
            }

            @Override
            public void addSplits(List<NoSplit> splits) {}

            @Override
            public void notifyNoMoreSplits() {}

            @Override
            public List<NoSplit> snapshotState(long checkpointId) {
                return List.of();
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public SplitEnumerator<NoSplit, Integer> createEnumerator(SplitEnumeratorContext<NoSplit> context) {
        return new SplitEnumerator<>() {
            @Override
            public void start() {}

            @Override
            public void handleSplitRequest(int subtaskId, String requesterHostname) {}

            @Override
            public void addSplitsBack(List<NoSplit> splits, int subtaskId) {}

            @Override
            public void addReader(int subtaskId) {}

            @Override
            public Integer snapshotState(long checkpointId) {
                return 0;
            }

            @Override
            public void close() {}
        };
    }

    @Override
    public SplitEnumerator<NoSplit, Integer> restoreEnumerator(SplitEnumeratorContext<NoSplit> context, Integer state) {
        return createEnumerator(context);
    }

    @Override
    public SimpleVersionedSerializer<NoSplit> getSplitSerializer() {
        return null;
    }

    @Override
    public SimpleVersionedSerializer<Integer> getEnumeratorCheckpointSerializer() {
        return null;
    }
}
