package dev.runnel.runtime.minicluster;

import dev.runnel.api.java.tuple.Tuple2;
import dev.runnel.configuration.Configuration;
import dev.runnel.streaming.api.functions.sink.SinkFunction;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * What the checkpoint-and-restore tests of this package observe their jobs with, in one place: the highest count
 * per key a job emitted ({@link MaxCountSink}; a lost record shows as a lower one, one counted twice as a higher
 * one), and whether a checkpoint taken mid-stream (after a given number of records) completed, which is when a
 * test injects its failure. Static, because functions are serialized into the job; tests of this package run one
 * at a time and call {@link #reset()} first.
 */
final class CheckpointTestProbes {

    static final Map<Long, Long> MAX_COUNT = new ConcurrentHashMap<>();
    static final AtomicBoolean CHECKPOINT_COMPLETED = new AtomicBoolean();
    static final Set<Long> MID_STREAM_CHECKPOINTS = ConcurrentHashMap.newKeySet();

    private CheckpointTestProbes() {}

    static void reset() {
        MAX_COUNT.clear();
        CHECKPOINT_COMPLETED.set(false);
        MID_STREAM_CHECKPOINTS.clear();
    }

    /**
     * Shrinks the channels for a test whose slow operator must see an unaligned checkpoint complete mid-stream.
     * Such a snapshot completes once the operator has consumed what was queued before the barrier, so it lasts
     * the channels' capacity over the operator's rate: with the default 512-record batches and 32 KiB buffers
     * one to two seconds, and on a loaded machine the source can end before one completed (the job then never
     * fails). Small batches and buffers still keep the channels full at every barrier, and let a checkpoint
     * complete in a fraction of the job's run (about 0.1-0.25 s instead of 1-2 s).
     */
    static void smallChannels(Configuration conf) {
        conf.setString("shuffle.local.batch-size", "64");
        conf.setString("taskmanager.memory.segment-size", "4 kb");
    }

    /** A function's snapshot of {@code checkpointId} was taken with {@code processed} records behind it. */
    static void snapshotTaken(long checkpointId, long processed, long midStream) {
        if (processed >= midStream) {
            MID_STREAM_CHECKPOINTS.add(checkpointId);
        }
    }

    /** Checkpoint {@code checkpointId} completed; it counts when it was taken mid-stream. */
    static void checkpointCompleted(long checkpointId) {
        if (MID_STREAM_CHECKPOINTS.contains(checkpointId)) {
            CHECKPOINT_COMPLETED.set(true);
        }
    }

    /** Keeps the highest count per key in {@link #MAX_COUNT}. */
    static final class MaxCountSink implements SinkFunction<Tuple2<Long, Long>> {
        @Override
        public void invoke(Tuple2<Long, Long> value, Context context) {
            MAX_COUNT.merge(value.f0, value.f1, Math::max);
        }
    }
}
