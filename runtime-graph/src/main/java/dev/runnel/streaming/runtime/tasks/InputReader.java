package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.runtime.io.CancelCheckpointMarker;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import dev.runnel.streaming.api.operators.Input;
import dev.runnel.streaming.runtime.io.StatusWatermarkValve;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * Reads one input gate into one input of the head operator: unpacks batches into a reused record holder,
 * combines the channels' watermarks and idleness with a {@link StatusWatermarkValve}, and stops between two
 * records when the task must yield (cancellation, backpressure), resuming the same batch on the next call.
 * A task restored from an unaligned checkpoint first processes the records of its restored channel state
 * ({@link ChannelStateReplay}), then reads the gate. While an unaligned checkpoint collects in-flight
 * records, each batch is handed to the barrier handler before it is processed. Task thread only.
 */
final class InputReader<IN> implements CheckpointBarrierHandler.PartialBatchSource {

    /** Records processed by one call of {@link #processRun} when the target takes no announcements. */
    private static final int RUN_LENGTH = 64;

    private final InputGate gate;
    private final Input<IN> target;
    private final String headName;
    private final String subtaskName;
    private final TaskSignals signals;
    private final StatusWatermarkValve valve;
    private CheckpointBarrierHandler barriers;
    private int gateIndex;
    private final StreamRecord<IN> reuse = new StreamRecord<>(null);
    private RecordBatch pending;
    private int position;
    /** The channel {@link #pending} came from; -1 while it is a batch of restored channel state. */
    private int pendingChannel = -1;
    /** The restored channel state still to process before the gate is read, or null. */
    private ChannelStateReplay replay;
    private boolean idle;
    /**
     * The position in the pending batch up to which records were announced to the target (the next group
     * is announced there), or -1 when the target takes no announcements. Its group size is asked lazily,
     * on the first batch, because the operator is opened after this reader is made.
     */
    private int preparedUntil;
    private int keyGroupSize = -1;

    InputReader(InputGate gate, Input<IN> target, String headName, String subtaskName, TaskSignals signals) {
        this.gate = gate;
        this.target = target;
        this.headName = headName;
        this.subtaskName = subtaskName;
        this.signals = signals;
        this.valve = new StatusWatermarkValve(gate.getNumberOfInputChannels());
    }

    /** Hands this input's barriers and channel ends to {@code handler}, as input {@code gateIndex} of the task. */
    void setBarrierHandler(CheckpointBarrierHandler handler, int gateIndex) {
        this.barriers = handler;
        this.gateIndex = gateIndex;
    }

    /** Records restored from an unaligned checkpoint's channel state: processed before anything of the gate. */
    void setReplay(ChannelStateReplay replay) {
        this.replay = replay;
    }

    /**
     * Announces the next records of {@code batch} from {@code from} to a target that takes them in groups
     * (a keyed operator whose state backend reads ahead, see {@link Input#prepareKeyContexts}).
     */
    private void prepareKeyContexts(RecordBatch batch, int from, int size) throws Exception {
        if (keyGroupSize < 0) {
            keyGroupSize = target.keyContextGroupSize();
        }
        if (keyGroupSize <= 0) {
            preparedUntil = -1; // never again: this target takes no announcements
            return;
        }
        int n = Math.min(keyGroupSize, size - from);
        try {
            target.prepareKeyContexts(batch, from, n);
        } catch (OperatorException e) {
            throw e;
        } catch (Exception e) {
            throw OperatorException.onRecord(headName, subtaskName, batch.value(from), e);
        }
        preparedUntil = from + n;
    }

    /** Processes one batch (or what is left of it) or one event; END_OF_INPUT once every channel ended. */
    InputStatus process() throws Exception {
        if (pending != null) {
            drain();
            return InputStatus.MORE_AVAILABLE;
        }
        if (replay != null) {
            RecordBatch restored = replay.next();
            if (restored != null) {
                pending = restored;
                pendingChannel = -1;
                position = 0;
                preparedUntil = preparedUntil < 0 ? -1 : 0;
                drain();
                return InputStatus.MORE_AVAILABLE;
            }
            replay = null;
            // An unaligned snapshot that waited for this input's replay is taken now, before any live record.
            barriers.inputReplayed();
        }
        RecordBatch element = gate.pollNext();
        if (element == null) {
            return gate.isFinished() ? InputStatus.END_OF_INPUT : InputStatus.NOTHING_AVAILABLE;
        }
        if (element.isEvent()) {
            processEvent(element.event(), gate.lastChannel(), element.isPriority());
            return gate.isFinished() ? InputStatus.END_OF_INPUT : InputStatus.MORE_AVAILABLE;
        }
        if (barriers.collectingChannelState) {
            barriers.collect(gateIndex, gate.lastChannel(), element);
        }
        pending = element;
        pendingChannel = gate.lastChannel();
        position = 0;
        preparedUntil = preparedUntil < 0 ? -1 : 0;
        drain();
        return InputStatus.MORE_AVAILABLE;
    }

    @Override
    public boolean replaying() {
        return replay != null;
    }

    @Override
    public CheckpointBarrierHandler.PartialBatch partialBatch() {
        // A batch of restored channel state never counts: the handler takes no snapshot while this input replays.
        return pending == null || pendingChannel < 0 ? null
                : new CheckpointBarrierHandler.PartialBatch(gateIndex, pendingChannel, pending, position);
    }

    /** Whether {@link #process()} would find work now. */
    boolean isAvailable() {
        return pending != null || replay != null || gate.isAvailable();
    }

    InputGate gate() {
        return gate;
    }

    /**
     * Processes the pending batch from {@link #position} in runs of at most one announced group (or
     * {@link #RUN_LENGTH} records for a target that takes no announcements), checking between any two records
     * whether the task must yield. The records are processed by {@link #processRun}, a method called once a
     * run rather than once a batch: the JIT then compiles it, with the operators it inlines, once through its
     * invocation count instead of twice (first on the stack through its loop's back-edge count, then again as
     * a method), which on a cold start took the one C2 thread of a 2-core machine for 0.2-0.4 s.
     */
    private void drain() throws Exception {
        RecordBatch batch = pending;
        int size = batch.size();
        int first = position;
        int i = first;
        while (i < size) {
            if (i == preparedUntil) {
                prepareKeyContexts(batch, i, size);
            }
            int end = preparedUntil > i ? preparedUntil : Math.min(size, i + RUN_LENGTH);
            i = processRun(batch, i, end);
            if (i < size && signals.shouldYield()) {
                signals.recordsIn += i - first;
                position = i;
                return;
            }
        }
        signals.recordsIn += size - first;
        pending = null;
        if (replay == null) {
            gate.recycle(batch);
        }
    }

    /**
     * Processes records {@code from} (inclusive) to {@code to} (exclusive) of {@code batch}, or fewer when the
     * task must yield; returns the index of the first record not processed. The check after the run's last
     * record is the caller's.
     */
    @SuppressWarnings("unchecked")
    private int processRun(RecordBatch batch, int from, int to) throws Exception {
        StreamRecord<IN> record = reuse;
        TaskSignals yield = signals;
        int i = from;
        while (i < to) {
            record.replaceFromTransport((IN) batch.value(i), batch.timestamp(i));
            i++;
            try {
                target.setKeyContextElement(record);
                target.processElement(record);
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw OperatorException.onRecord(headName, subtaskName, record.getValue(), e);
            }
            if (i < to && yield.shouldYield()) {
                break;
            }
        }
        return i;
    }

    private void processEvent(ChannelEvent event, int channel, boolean priority) throws Exception {
        switch (event.type()) {
            case WATERMARK -> emitIfAdvanced(valve.inputWatermark(((WatermarkEvent) event).timestamp(), channel));
            case WATERMARK_STATUS -> {
                emitIfAdvanced(valve.inputStatus(((WatermarkStatusEvent) event).idle(), channel));
                if (valve.isIdle() != idle) {
                    idle = valve.isIdle();
                    target.processWatermarkStatus(idle);
                }
            }
            case END_OF_PARTITION -> barriers.processEndOfPartition(gateIndex, channel);
            case CHECKPOINT_BARRIER -> barriers.processBarrier((CheckpointBarrier) event, gateIndex, channel, priority);
            case CANCEL_CHECKPOINT -> barriers.processCancel(((CancelCheckpointMarker) event).checkpointId());
        }
    }

    private void emitIfAdvanced(long watermark) throws Exception {
        if (watermark != StatusWatermarkValve.NO_CHANGE) {
            try {
                target.processWatermark(new Watermark(watermark));
            } catch (OperatorException e) {
                throw e;
            } catch (Exception e) {
                throw new OperatorException("Operator '" + headName + "' in " + subtaskName + " failed on watermark "
                        + watermark + ": " + e, e);
            }
        }
    }
}
