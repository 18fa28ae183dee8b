package dev.runnel.runtime.minicluster;

import dev.runnel.api.java.tuple.Tuple2;
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
