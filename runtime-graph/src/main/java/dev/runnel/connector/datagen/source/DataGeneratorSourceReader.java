package dev.runnel.connector.datagen.source;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.connector.source.ReaderOutput;
import dev.runnel.api.connector.source.SourceReader;
import dev.runnel.api.connector.source.SourceReaderContext;
import dev.runnel.api.connector.source.lib.IteratorSourceReader;
import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceIterator;
import dev.runnel.api.connector.source.lib.NumberSequenceSource.NumberSequenceSplit;
import dev.runnel.api.connector.source.util.ratelimit.RateLimiter;
import dev.runnel.core.io.InputStatus;
import java.util.List;
import java.util.concurrent.CompletableFuture;

/**
 * The reader of a {@link DataGeneratorSource}: reads index ranges with an {@link IteratorSourceReader}
 * and maps each index through the generator function, taking one rate-limiter permit per record.
 *
 * <p>When the permit is not due yet, {@link #pollNext} returns {@code NOTHING_AVAILABLE} and
 * {@link #isAvailable()} is the permit's future, which a timer completes; the task thread never
 * sleeps. Task thread only.
 */
final class DataGeneratorSourceReader<OUT> implements SourceReader<OUT, NumberSequenceSplit> {

    private final SourceReaderContext context;
    private final GeneratorFunction<Long, OUT> generator;
    private final RateLimiter rateLimiter;
    private final IteratorSourceReader<Long, NumberSequenceIterator, NumberSequenceSplit> indexes;
    private final MappingOutput mapping = new MappingOutput();
    /** A permit asked for but not granted yet; null when none is pending. */
    private CompletableFuture<Void> pendingPermit;
    /** A granted permit not yet spent on a record. */
    private boolean permitHeld;
    private boolean opened;

    DataGeneratorSourceReader(SourceReaderContext context, GeneratorFunction<Long, OUT> generator,
            RateLimiter rateLimiter) {
        this.context = context;
        this.generator = generator;
        this.rateLimiter = rateLimiter;
        this.indexes = new IteratorSourceReader<>(context);
    }

    @Override
    public void start() {
        try {
            generator.open(context);
            opened = true;
        } catch (Exception e) {
            throw new IllegalStateException("The generator function of a DataGeneratorSource failed to open on subtask "
                    + context.getIndexOfSubtask() + ": " + e, e);
        }
        indexes.start();
    }

    @Override
    public InputStatus pollNext(ReaderOutput<OUT> output) throws Exception {
        if (pendingPermit != null) {
            if (!pendingPermit.isDone()) {
                return InputStatus.NOTHING_AVAILABLE;
            }
            pendingPermit = null;
            permitHeld = true;
        }
        if (!permitHeld) {
            CompletableFuture<Void> permit = rateLimiter.acquire().toCompletableFuture();
            if (!permit.isDone()) {
                pendingPermit = permit;
                return InputStatus.NOTHING_AVAILABLE;
            }
            permitHeld = true;
        }
        mapping.target = output;
        mapping.emitted = false;
        InputStatus status;
        try {
            status = indexes.pollNext(mapping);
        } catch (GeneratorFailure failure) {
            throw failure.failure;
        } finally {
            mapping.target = null;
        }
        if (mapping.emitted) {
            permitHeld = false;
        }
        return status;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        CompletableFuture<Void> permit = pendingPermit;
        return permit != null ? permit : indexes.isAvailable();
    }

    @Override
    public void addSplits(List<NumberSequenceSplit> splits) {
        indexes.addSplits(splits);
    }

    @Override
    public void notifyNoMoreSplits() {
        indexes.notifyNoMoreSplits();
    }

    @Override
    public List<NumberSequenceSplit> snapshotState(long checkpointId) {
        return indexes.snapshotState(checkpointId);
    }

    @Override
    public void close() throws Exception {
        try {
            indexes.close();
        } finally {
            if (opened) {
                opened = false;
                generator.close();
            }
        }
    }

    /** Carries a checked exception of the generator function out of the index reader's poll. */
    private static final class GeneratorFailure extends RuntimeException {
        private static final long serialVersionUID = 1L;
        final Exception failure;

        GeneratorFailure(Exception cause) {
            super(null, cause, false, false);
            this.failure = cause;
        }
    }

    /** Maps each index to a record on its way to the real output. */
    private final class MappingOutput implements ReaderOutput<Long> {
        ReaderOutput<OUT> target;
        boolean emitted;

        @Override
        public void collect(Long index) {
            target.collect(generate(index));
            emitted = true;
        }

        @Override
        public void collect(Long index, long timestamp) {
            target.collect(generate(index), timestamp);
            emitted = true;
        }

        private OUT generate(Long index) {
            OUT record;
            try {
                record = generator.map(index);
            } catch (RuntimeException e) {
                throw e;
            } catch (Exception e) {
                throw new GeneratorFailure(e);
            }
            if (record == null) {
                throw new NullPointerException("The generator function of a DataGeneratorSource returned null for index "
                        + index);
            }
            return record;
        }

        @Override
        public void emitWatermark(Watermark watermark) {
            target.emitWatermark(watermark);
        }

        @Override
        public void markIdle() {
            target.markIdle();
        }

        @Override
        public void markActive() {
            target.markActive();
        }
    }
}
