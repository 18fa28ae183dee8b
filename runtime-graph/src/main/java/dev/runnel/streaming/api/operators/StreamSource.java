package dev.runnel.streaming.api.operators;

import dev.runnel.runtime.state.FunctionSnapshotContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import dev.runnel.streaming.api.checkpoint.CheckpointedFunction;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.core.io.InputStatus;
import dev.runnel.streaming.api.functions.source.SourceFunction;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.source.PollableSource;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.ArrayDeque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The head of a task that runs a legacy {@link SourceFunction} ({@code env.addSource(...)}), at
 * Flink's name.
 *
 * <p>Threads: the function's {@code run} runs on its own thread, "Legacy Source Thread - (task)",
 * started when the task first polls for input. What it emits goes into a bounded hand-off (see
 * {@link SourceFunctionHandoff}) guarded by the checkpoint lock; the task thread takes it out in
 * batches and emits one element per poll ({@link #emitNext()}), so downstream operators, timers and
 * mails all run on the task thread and never see concurrent calls. A full hand-off makes the source
 * thread wait: backpressure reaches the function through {@code collect}.
 *
 * <p>End: when {@code run} returns and everything it emitted was taken, the operator emits the final
 * watermark and the input ends; if {@code run} threw, the task fails with that cause. Cancellation or
 * failure of the task closes the operator, which calls the function's {@code cancel()}, interrupts the
 * source thread and waits for it a bounded time. Rich functions are opened before {@code run} and
 * closed after it, on the task thread. In BATCH mode only the final watermark is emitted (such a
 * source is unbounded, though, so BATCH jobs do not contain it).
 *
 * @param <OUT> the record type
 * @param <SRC> the function type
 */
public class StreamSource<OUT, SRC extends SourceFunction<OUT>> extends AbstractUdfStreamOperator<OUT, SRC>
        implements PollableSource {

    private static final long serialVersionUID = 1L;

    private static final Logger LOG = LoggerFactory.getLogger(StreamSource.class);

    /** Elements the source thread may hand over before it waits for the task thread. */
    static final int HANDOFF_CAPACITY = 1024;

    /** How long closing waits for a cancelled source thread to stop. */
    static final long STOP_WAIT_MILLIS = 10_000;

    private transient SourceFunctionHandoff<OUT> handoff;
    private transient ArrayDeque<Object> taken;
    private transient WatermarkEmitter watermarks;
    private transient Thread sourceThread;
    private transient boolean ended;

    public StreamSource(SRC sourceFunction) {
        super(sourceFunction);
        this.chainingStrategy = ChainingStrategy.HEAD;
    }

    @Override
    public void open() throws Exception {
        super.open();
        handoff = new SourceFunctionHandoff<>(HANDOFF_CAPACITY);
        taken = new ArrayDeque<>();
        watermarks = new WatermarkEmitter(output, !task.isBatchExecution());
    }

    @Override
    public InputStatus emitNext() throws Exception {
        if (sourceThread == null) {
            startSourceThread();
        }
        if (taken.isEmpty() && handoff.takeAll(taken)) {
            return endOfInput();
        }
        Object item = taken.poll();
        if (item == null) {
            return InputStatus.NOTHING_AVAILABLE;
        }
        emit(item);
        return InputStatus.MORE_AVAILABLE;
    }

    @Override
    public CompletableFuture<Void> isAvailable() {
        return taken != null && !taken.isEmpty() ? CompletableFuture.completedFuture(null) : handoff.available();
    }

    private void startSourceThread() {
        String name = "Legacy Source Thread - " + task.getTaskInfo().getTaskNameWithSubtasks();
        sourceThread = new Thread(this::runFunction, name);
        sourceThread.setDaemon(true);
        sourceThread.setContextClassLoader(Thread.currentThread().getContextClassLoader());
        sourceThread.start();
    }

    /** The source thread's body. */
    private void runFunction() {
        Throwable failure = null;
        try {
            userFunction.run(handoff);
        } catch (Throwable t) {
            failure = t;
        }
        handoff.end(failure);
    }

    private InputStatus endOfInput() throws Exception {
        Throwable failure = handoff.failure();
        if (failure != null) {
            throw new OperatorException("The source function of '" + getOperatorName() + "' failed in run(): "
                    + failure, failure);
        }
        if (!ended) {
            ended = true;
            watermarks.emitWatermark(Watermark.MAX_WATERMARK);
        }
        return InputStatus.END_OF_INPUT;
    }

    @SuppressWarnings("unchecked")
    private void emit(Object item) {
        if (item instanceof SourceFunctionHandoff.Element<?> element) {
            watermarks.markActive();
            OUT value = (OUT) element.value();
            output.collect(element.hasTimestamp() ? new StreamRecord<>(value, element.timestamp())
                    : new StreamRecord<>(value));
        } else if (item instanceof dev.runnel.streaming.api.watermark.Watermark mark) {
            watermarks.emitWatermark(new Watermark(mark.getTimestamp()));
        } else if (item == SourceFunctionHandoff.IDLE) {
            watermarks.markIdle();
        }
    }

    /** Stops a source thread that is still running (cancellation, failure), then closes the function. */
    /**
     * Under the checkpoint lock, so the function cannot emit or move on meanwhile: emits everything it
     * collected so far (it belongs before the barrier, since the function's position already counts it), then
     * lets a {@link CheckpointedFunction} snapshot its position. What it collects after that follows the
     * barrier. The function's snapshot therefore happens here, not in {@link #snapshotState(StateSnapshotContext)}.
     */
    @Override
    public void prepareSnapshotPreBarrier(long checkpointId) throws Exception {
        synchronized (handoff.getCheckpointLock()) {
            handoff.takeAll(taken);
            while (!taken.isEmpty()) {
                emit(taken.poll());
            }
            if (userFunction instanceof CheckpointedFunction checkpointed) {
                long timestamp = System.currentTimeMillis();
                checkpointed.snapshotState(new FunctionSnapshotContext() {
                    @Override
                    public long getCheckpointId() {
                        return checkpointId;
                    }

                    @Override
                    public long getCheckpointTimestamp() {
                        return timestamp;
                    }
                });
            }
        }
    }

    /** The function already snapshotted in {@link #prepareSnapshotPreBarrier}, under the lock. */
    @Override
    public void snapshotState(StateSnapshotContext context) {}

    @Override
    public void emitMaxWatermark() {
        watermarks.emitWatermark(Watermark.MAX_WATERMARK);
    }

    @Override
    public void close() throws Exception {
        try {
            stopSourceThread();
        } finally {
            super.close();
        }
    }

    private void stopSourceThread() {
        if (sourceThread == null) {
            return;
        }
        boolean stillRunning = !handoff.hasEnded();
        handoff.shutDown();
        if (stillRunning) {
            userFunction.cancel();
            sourceThread.interrupt();
        }
        awaitSourceThread();
        if (sourceThread.isAlive()) {
            LOG.warn("The source function of '{}' did not return from run() within {} ms of cancel() and an "
                    + "interrupt; its thread '{}' is abandoned. Make run() return once cancel() was called.",
                    getOperatorName(), STOP_WAIT_MILLIS, sourceThread.getName());
        }
    }

    /**
     * Waits up to {@link #STOP_WAIT_MILLIS} for the source thread. The task thread itself is interrupted
     * while it is being cancelled; those interrupts do not cut the wait short, and are restored after.
     */
    private void awaitSourceThread() {
        boolean interrupted = Thread.interrupted();
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(STOP_WAIT_MILLIS);
        long remaining;
        while (sourceThread.isAlive() && (remaining = deadline - System.nanoTime()) > 0) {
            try {
                sourceThread.join(Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)));
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
