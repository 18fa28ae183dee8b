package dev.runnel.streaming.runtime.tasks;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.partitioner.StreamPartitioner;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.Output;
import dev.runnel.streaming.api.operators.StreamOperator;
import dev.runnel.streaming.api.operators.StreamOperatorParameters;
import dev.runnel.streaming.api.operators.StreamTaskContext;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import dev.runnel.util.InstantiationUtil;
import dev.runnel.util.OutputTag;
import dev.runnel.runtime.checkpoint.CheckpointOptions;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.CheckpointBarrier;
import dev.runnel.streaming.api.operators.OperatorSnapshotFutures;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The operators of one subtask's chain, wired to each other by direct calls and to job edges by
 * record writers. Lifecycle order follows Flink: open from the tail to the head (a consumer is ready
 * before its producer emits), finish from the head to the tail (each finish may still emit into the
 * next operator), close all.
 *
 * <p>Task thread only.
 */
final class OperatorChain {

    private final StreamOperator<?>[] operators;
    private final String[] operatorIds;
    private final List<RecordWriterOutput<?>> writerOutputs = new ArrayList<>();

    @SuppressWarnings({"unchecked", "rawtypes"})
    OperatorChain(TaskDeployment deployment, StreamTaskContext context, Map<JobEdge, ResultPartitionWriter> writers,
            boolean objectReuse, boolean flushAlways, String subtaskName, TaskSignals signals) {
        List<ChainedOperator> configs = deployment.vertex().getOperators();
        int n = configs.size();
        operators = new StreamOperator<?>[n];
        operatorIds = new String[n];
        ClassLoader loader = Thread.currentThread().getContextClassLoader();
        for (int i = 0; i < n; i++) {
            operatorIds[i] = configs.get(i).getConfig().operatorId();
            operators[i] = InstantiationUtil.deserialize(
                    deployment.serializedOperators().get(i), loader, "operator '" + configs.get(i).getName() + "'");
        }
        SerializerConfig serializerConfig = context.getExecutionConfig().getSerializerConfig();
        Output<?>[] outputs = new Output<?>[n];
        for (int i = n - 1; i >= 0; i--) {
            ChainedOperator config = configs.get(i);
            List<Output<?>> targets = new ArrayList<>();
            for (ChainedOperator.ChainedOutput chained : config.getChainedOutputs()) {
                TypeSerializer<?> type = chained.outputTag() != null
                        ? chained.outputTag().getTypeInfo().createSerializer(serializerConfig)
                        : config.getOutputSerializer();
                TypeSerializer<?> copier = objectReuse || type == null || type.isImmutableType() ? null : type;
                boolean keyed = configs.get(chained.targetIndex()).getConfig().keySelector1() != null;
                targets.add(new ChainingOutput((OneInputStreamOperator) operators[chained.targetIndex()],
                        chained.outputTag(), copier, subtaskName, keyed));
            }
            for (JobEdge edge : config.getNetworkOutputs()) {
                // The writer copies or serializes what another thread will read, reuse or not.
                RecordWriterOutput<?> output = new RecordWriterOutput(writers.get(edge),
                        (StreamPartitioner) edge.getPartitioner().copy(), edge.getOutputTag(), signals, flushAlways,
                        "'" + edge.getSourceOperatorName() + "' -> '" + edge.getTargetOperatorName() + "'");
                writerOutputs.add(output);
                targets.add(output);
            }
            outputs[i] = switch (targets.size()) {
                case 0 -> new DiscardingOutput<>();
                case 1 -> targets.get(0);
                default -> new BroadcastingOutput(targets.toArray(new Output[0]));
            };
            ((StreamOperator) operators[i]).setup(new StreamOperatorParameters(context, config.getConfig(), outputs[i]));
        }
    }

    StreamOperator<?> getHead() {
        return operators[0];
    }

    /** Every operator before the barrier is forwarded, head first: each may still emit into the next. */
    void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        for (StreamOperator<?> operator : operators) {
            operator.prepareSnapshotPreBarrier(checkpointId);
        }
    }

    /** Sends {@code event} on every outgoing edge, after what was emitted before it. */
    void broadcastEvent(ChannelEvent event) throws InterruptedException {
        for (RecordWriterOutput<?> output : writerOutputs) {
            output.broadcastControlEvent(event);
        }
    }

    /** Sends {@code barrier}'s overtaking copy on every outgoing edge that supports unaligned checkpoints. */
    void overtakeWithBarrier(CheckpointBarrier barrier) throws InterruptedException {
        for (RecordWriterOutput<?> output : writerOutputs) {
            output.overtakeWithBarrier(barrier);
        }
    }

    /**
     * The synchronous phase of a checkpoint for every operator, by operator id. If one fails, what the others
     * captured is released.
     */
    Map<String, OperatorSnapshotFutures> snapshotState(long checkpointId, long timestamp, CheckpointOptions options)
            throws Exception {
        Map<String, OperatorSnapshotFutures> snapshots = new LinkedHashMap<>();
        try {
            for (int i = 0; i < operators.length; i++) {
                snapshots.put(operatorIds[i], operators[i].snapshotState(checkpointId, timestamp, options));
            }
            return snapshots;
        } catch (Exception | Error e) {
            snapshots.values().forEach(OperatorSnapshotFutures::release);
            throw e;
        }
    }

    /** Tells every operator that a checkpoint completed (or was aborted), tail first as Flink does. */
    void notifyCheckpoint(long checkpointId, boolean completed) throws Exception {
        for (int i = operators.length - 1; i >= 0; i--) {
            if (completed) {
                operators[i].notifyCheckpointComplete(checkpointId);
            } else {
                operators[i].notifyCheckpointAborted(checkpointId);
            }
        }
    }

    /**
     * Tail first, each operator creates (or restores) its state and opens. When restoring from checkpoint
     * {@code restoredCheckpointId} (null: a fresh start), a failure to read the state becomes a
     * {@link TaskRestoreException} so the job can fall back to an earlier checkpoint.
     */
    void initializeStateAndOpen(Long restoredCheckpointId, String subtaskName) throws Exception {
        for (int i = operators.length - 1; i >= 0; i--) {
            try {
                operators[i].initializeState();
            } catch (Exception e) {
                if (restoredCheckpointId != null && causedByIo(e)) {
                    throw new TaskRestoreException("Operator '" + operators[i].getOperatorName() + "' in " + subtaskName
                            + " could not restore its state from checkpoint " + restoredCheckpointId + ": " + e.getMessage(),
                            restoredCheckpointId, e);
                }
                throw e;
            }
            operators[i].open();
        }
    }

    private static boolean causedByIo(Throwable t) {
        for (Throwable cause = t; cause != null; cause = cause.getCause()) {
            if (cause instanceof java.io.IOException) {
                return true;
            }
        }
        return false;
    }

    /** End of input: finish every operator, head first. */
    void finishOperators() throws Exception {
        for (StreamOperator<?> operator : operators) {
            operator.finish();
        }
    }

    /** Whether every outgoing edge can take more input (no channel at its limit). */
    boolean outputsAvailable() {
        for (RecordWriterOutput<?> output : writerOutputs) {
            if (!output.isAvailable()) {
                return false;
            }
        }
        return true;
    }

    void flushOutputs() throws InterruptedException {
        for (RecordWriterOutput<?> output : writerOutputs) {
            output.flush();
        }
    }

    /** Sends end-of-partition on every outgoing edge. */
    void finishOutputs() throws InterruptedException {
        for (RecordWriterOutput<?> output : writerOutputs) {
            output.finish();
        }
    }

    /**
     * The name of the operator whose code the stack is in: the innermost frame that belongs to an operator
     * of this chain or to its user function (frames nearest the top win). Null if none does. Any thread.
     */
    String operatorOnStack(StackTraceElement[] stack) {
        for (StackTraceElement frame : stack) {
            for (StreamOperator<?> operator : operators) {
                if (frame.getClassName().equals(operator.getClass().getName())
                        || (operator instanceof AbstractUdfStreamOperator<?, ?> udf && udf.getUserFunction() != null
                                && belongsTo(frame, udf.getUserFunction().getClass()))) {
                    return operator.getOperatorName();
                }
            }
        }
        return null;
    }

    /** A frame of {@code type} itself, or of a lambda's body in its declaring class. */
    private static boolean belongsTo(StackTraceElement frame, Class<?> type) {
        String name = type.getName();
        int lambda = name.indexOf("$$Lambda");
        return frame.getClassName().equals(lambda < 0 ? name : name.substring(0, lambda))
                && (lambda < 0 || frame.getMethodName().startsWith("lambda$"));
    }

    /** Closes every operator and output, keeping the first failure and suppressing the rest. */
    void closeAll() throws Exception {
        Exception first = null;
        for (StreamOperator<?> operator : operators) {
            try {
                operator.close();
            } catch (Exception e) {
                if (first == null) {
                    first = e;
                } else {
                    first.addSuppressed(e);
                }
            }
        }
        for (RecordWriterOutput<?> output : writerOutputs) {
            output.close();
        }
        if (first != null) {
            throw first;
        }
    }

    /** Output of operators with no consumer (sinks). */
    private static final class DiscardingOutput<T> implements Output<T> {
        @Override
        public void collect(StreamRecord<T> record) {}

        @Override
        public <X> void collect(OutputTag<X> outputTag, StreamRecord<X> record) {}

        @Override
        public void emitWatermark(Watermark watermark) {}

        @Override
        public void emitWatermarkStatus(boolean idle) {}

        @Override
        public void close() {}
    }
}
