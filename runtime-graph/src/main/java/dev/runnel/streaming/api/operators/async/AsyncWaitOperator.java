package dev.runnel.streaming.api.operators.async;

import dev.runnel.api.common.state.ListState;
import dev.runnel.streaming.api.functions.async.AsyncRetryPredicate;
import dev.runnel.streaming.api.functions.async.AsyncRetryStrategy;
import dev.runnel.streaming.util.retryable.AsyncRetryStrategies;
import dev.runnel.api.common.state.ListStateDescriptor;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.state.StateInitializationContext;
import dev.runnel.runtime.state.StateSnapshotContext;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.runtime.timers.ProcessingTimeService.Cancellable;
import dev.runnel.streaming.api.datastream.AsyncDataStream;
import dev.runnel.streaming.api.functions.async.AsyncFunction;
import dev.runnel.streaming.api.functions.async.CollectionSupplier;
import dev.runnel.streaming.api.functions.async.ResultFuture;
import dev.runnel.streaming.api.operators.AbstractUdfStreamOperator;
import dev.runnel.streaming.api.operators.OneInputStreamOperator;
import dev.runnel.streaming.api.operators.StreamTaskContext;
import dev.runnel.streaming.api.operators.TimestampedCollector;
import dev.runnel.streaming.runtime.operators.OperatorException;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;
import java.util.Collection;
import java.util.Objects;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Runs an {@link AsyncFunction}: hands each record to {@code asyncInvoke}, keeps it until its
 * {@link ResultFuture} completes, and emits the results with the record's timestamp — in input order
 * ({@link AsyncDataStream.OutputMode#ORDERED}) or as they complete, but never across a watermark
 * ({@link AsyncDataStream.OutputMode#UNORDERED}).
 *
 * <p>Contract, as Flink's:
 * <ul>
 *   <li>At most {@code capacity} elements (records and watermarks) are held. When full, the operator takes
 *       no more input: {@code processElement} waits with {@link StreamTaskContext#yieldUntil}, running mails
 *       (completions, timeouts) until there is room.
 *   <li>A future may be completed from any thread; the completion is put on the task's mailbox and the
 *       results are emitted on the task thread. Only the first completion counts.
 *   <li>With a timeout above 0, a processing-time timer calls {@link AsyncFunction#timeout} for a record not
 *       completed in time; its default fails the job with a {@code TimeoutException}.
 *   <li>An exceptional completion fails the job, naming this operator and the record.
 *   <li>{@link #finish()} (end of input) waits until every held element has been emitted.
 * </ul>
 *
 * <p>Checkpoints: the records still held (waiting, or completed but not emitted yet) are this operator's
 * state, as in Flink: a checkpoint writes them (with their timestamps) into operator list state, and a
 * restore invokes the function again for each of them, in order, before any new input. With object reuse
 * enabled the input value is held as is, so upstream must not mutate it.
 *
 * <p>Task thread only, except the result futures.
 *
 * @param <IN> the input type
 * @param <OUT> the output type
 */
public final class AsyncWaitOperator<IN, OUT> extends AbstractUdfStreamOperator<OUT, AsyncFunction<IN, OUT>>
        implements OneInputStreamOperator<IN, OUT> {

    private static final long serialVersionUID = 1L;

    /** The operator list state that holds the records in flight at a checkpoint. */
    static final String STATE_NAME = "_async_wait_operator_state_";

    private final long timeout;
    private final int capacity;
    private final AsyncDataStream.OutputMode outputMode;
    private final TypeInformation<IN> inputType;
    private final AsyncRetryStrategy<OUT> retryStrategy;

    private transient StreamElementQueue queue;
    private transient TimestampedCollector<OUT> collector;
    private transient boolean emitting;
    private transient boolean waitingForRoom;
    private transient Watermark deferredWatermark;
    private transient boolean closed;
    /** The records held, in input order: what a checkpoint must keep. */
    private transient LinkedHashSet<RecordEntry> inFlight;
    private transient ListState<byte[]> checkpointedRecords;
    private transient TypeSerializer<IN> inputSerializer;
    private transient List<StreamRecord<IN>> restored;

    /**
     * @param timeout milliseconds until {@link AsyncFunction#timeout} is called; 0 or less for none
     * @param capacity how many elements may be held at once; at least 1
     * @param inputType the records' type, to write the held records into checkpoints
     */
    @SuppressWarnings("unchecked")
    public AsyncWaitOperator(AsyncFunction<IN, OUT> asyncFunction, long timeout, int capacity,
            AsyncDataStream.OutputMode outputMode, TypeInformation<IN> inputType) {
        this(asyncFunction, timeout, capacity, outputMode, inputType, AsyncRetryStrategies.NO_RETRY_STRATEGY);
    }

    /**
     * @param retryStrategy when to ask the function again for a record (results or errors its predicate
     *     accepts, with back-off); the timeout covers every attempt
     */
    public AsyncWaitOperator(AsyncFunction<IN, OUT> asyncFunction, long timeout, int capacity,
            AsyncDataStream.OutputMode outputMode, TypeInformation<IN> inputType,
            AsyncRetryStrategy<OUT> retryStrategy) {
        super(asyncFunction);
        this.retryStrategy = Objects.requireNonNull(retryStrategy, "retryStrategy");
        this.inputType = Objects.requireNonNull(inputType, "inputType");
        if (capacity <= 0) {
            throw new IllegalArgumentException("The capacity of an async operator must be at least 1, was " + capacity);
        }
        this.timeout = timeout;
        this.capacity = capacity;
        this.outputMode = Objects.requireNonNull(outputMode, "outputMode");
    }

    @Override
    public void initializeState(StateInitializationContext context) throws Exception {
        super.initializeState(context);
        inputSerializer = inputType.createSerializer(task.getExecutionConfig().getSerializerConfig());
        checkpointedRecords = context.getOperatorStateStore().getListState(
                new ListStateDescriptor<>(STATE_NAME, BytePrimitiveArraySerializer.INSTANCE));
        restored = new ArrayList<>();
        for (byte[] bytes : checkpointedRecords.get()) {
            DataInputDeserializer in = new DataInputDeserializer(bytes);
            boolean hasTimestamp = in.readBoolean();
            long timestamp = in.readLong();
            IN value = inputSerializer.deserialize(in);
            restored.add(hasTimestamp ? new StreamRecord<>(value, timestamp) : new StreamRecord<>(value));
        }
    }

    @Override
    public void open() throws Exception {
        super.open();
        queue = outputMode == AsyncDataStream.OutputMode.ORDERED
                ? new OrderedStreamElementQueue(capacity) : new UnorderedStreamElementQueue(capacity);
        collector = new TimestampedCollector<>(output);
        inFlight = new LinkedHashSet<>();
        if (restored != null) {
            // The records held at the checkpoint are asked for again, ahead of new input.
            for (StreamRecord<IN> record : restored) {
                processElement(record);
            }
            restored = null;
        }
    }

    /** Writes every held record (value and timestamp) into the operator's list state. */
    @Override
    public void snapshotState(StateSnapshotContext context) throws Exception {
        super.snapshotState(context);
        List<byte[]> records = new ArrayList<>(inFlight.size());
        DataOutputSerializer out = new DataOutputSerializer(64);
        for (RecordEntry entry : inFlight) {
            out.clear();
            out.writeBoolean(entry.input.hasTimestamp());
            out.writeLong(entry.input.hasTimestamp() ? entry.input.getTimestamp() : 0);
            inputSerializer.serialize(entry.input.getValue(), out);
            records.add(out.getCopyOfBuffer());
        }
        checkpointedRecords.update(records);
    }

    @Override
    public void processElement(StreamRecord<IN> element) throws Exception {
        // our own holder: the caller may reuse its one
        StreamRecord<IN> record = element.copy(element.getValue());
        waitForRoom();
        RecordEntry entry = new RecordEntry(record);
        queue.add(entry);
        inFlight.add(entry);
        entry.startTimer();
        entry.invoke();
        applyDeferredWatermark();
    }

    /**
     * A watermark is an element of the queue: it goes downstream after the records before it (and, when
     * unordered, holds back the records after it). One that arrives while a record waits for room (from
     * a mail of a chained source) is applied after that record, keeping the input's order.
     */
    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (waitingForRoom) {
            deferredWatermark = mark;
            return;
        }
        waitForRoom();
        queue.add(new WatermarkEntry(mark));
        emitCompleted();
        applyDeferredWatermark();
    }

    private void applyDeferredWatermark() throws Exception {
        Watermark mark = deferredWatermark;
        if (mark != null) {
            deferredWatermark = null;
            processWatermark(mark);
        }
    }

    private void waitForRoom() throws Exception {
        if (queue.hasRoom()) {
            return;
        }
        waitingForRoom = true;
        try {
            task.yieldUntil(queue::hasRoom);
        } finally {
            waitingForRoom = false;
        }
    }

    /** End of input: every record still waiting is completed (or timed out) and emitted first. */
    @Override
    public void finish() throws Exception {
        task.yieldUntil(queue::isEmpty);
        super.finish();
    }

    @Override
    public void close() throws Exception {
        closed = true;
        super.close();
    }

    /** The number of records and watermarks held now (for tests and metrics). Task thread only. */
    public int getQueueSize() {
        return queue == null ? 0 : queue.size();
    }

    /** Emits what may go downstream; a re-entrant call (from a downstream wait) leaves it to the outer one. */
    private void emitCompleted() {
        if (emitting) {
            return;
        }
        emitting = true;
        try {
            queue.emitCompleted();
        } finally {
            emitting = false;
        }
    }

    private void onResults(RecordEntry entry, Collection<OUT> results) {
        if (closed) {
            return;
        }
        entry.results = results;
        entry.cancelTimer();
        queue.completed(entry);
        emitCompleted();
    }

    private OperatorException failure(StreamRecord<IN> record, Throwable cause) {
        return new OperatorException("Async operator '" + getOperatorName() + "' in "
                + task.getTaskInfo().getTaskNameWithSubtasks() + " could not complete record "
                + OperatorException.describe(record.getValue()) + ": " + cause, cause);
    }

    /** A record waiting for its results, over one or more attempts (with a retry strategy). Task thread only. */
    private final class RecordEntry implements StreamElementQueue.Entry {
        private final StreamRecord<IN> input;
        /** Set on the task thread when the final outcome's mail runs. */
        private Collection<OUT> results;
        private Cancellable timer;
        private Attempt current;
        private int attempts;
        private boolean timedOut;
        /** A retry is scheduled and no attempt is in flight. */
        private boolean retryPending;

        RecordEntry(StreamRecord<IN> input) {
            this.input = input;
        }

        /** Asks the function (again) for this record. */
        void invoke() throws Exception {
            retryPending = false;
            attempts++;
            current = new Attempt(this);
            userFunction.asyncInvoke(input.getValue(), current);
        }

        void startTimer() {
            if (timeout > 0) {
                long now = getProcessingTimeService().getCurrentProcessingTime();
                timer = getProcessingTimeService().registerTimer(now + timeout, time -> onTimeout());
            }
        }

        void cancelTimer() {
            if (timer != null) {
                timer.cancel();
                timer = null;
            }
        }

        /** The timeout covers every attempt; what {@code timeout} completes with is final. */
        private void onTimeout() {
            if (closed || results != null) {
                return;
            }
            timedOut = true;
            if (!retryPending && current.completed.get()) {
                // the attempt's outcome is on its way to the task thread; it is final now, retried no more
                return;
            }
            retryPending = false;
            current = new Attempt(this);
            try {
                userFunction.timeout(input.getValue(), current);
            } catch (Exception e) {
                throw failure(input, e);
            }
        }

        /** An attempt's outcome, on the task thread: retried when the strategy says so, else final. */
        void onOutcome(Attempt attempt, Collection<OUT> outcome, Throwable error) throws Exception {
            if (closed || attempt != current || results != null) {
                return;
            }
            if (!timedOut && retryStrategy.canRetry(attempts) && callsForRetry(outcome, error)) {
                long delay = retryStrategy.getBackoffTimeMillis(attempts);
                long now = getProcessingTimeService().getCurrentProcessingTime();
                retryPending = true;
                getProcessingTimeService().registerTimer(now + delay, time -> {
                    if (!closed && results == null && !timedOut) {
                        invoke();
                    }
                });
                return;
            }
            if (error != null) {
                throw failure(input, error);
            }
            onResults(this, outcome);
        }

        private boolean callsForRetry(Collection<OUT> outcome, Throwable error) {
            AsyncRetryPredicate<OUT> predicate = retryStrategy.getRetryPredicate();
            if (error != null) {
                return predicate.exceptionPredicate().map(p -> p.test(error)).orElse(false);
            }
            return predicate.resultPredicate().map(p -> p.test(outcome)).orElse(false);
        }

        @Override
        public boolean isDone() {
            return results != null;
        }

        @Override
        public boolean isWatermark() {
            return false;
        }

        @Override
        public void emit() {
            inFlight.remove(this);
            collector.setTimestamp(input);
            for (OUT result : results) {
                collector.collect(result);
            }
        }
    }

    /** The future of one attempt; only its first completion counts. Any thread. */
    private final class Attempt implements ResultFuture<OUT> {
        private final RecordEntry entry;
        private final AtomicBoolean completed = new AtomicBoolean();

        Attempt(RecordEntry entry) {
            this.entry = entry;
        }

        @Override
        public void complete(Collection<OUT> result) {
            Objects.requireNonNull(result, "The result collection must not be null; complete with an empty"
                    + " collection to emit nothing.");
            if (completed.compareAndSet(false, true)) {
                task.execute(() -> entry.onOutcome(this, result, null), "async results of " + getOperatorName());
            }
        }

        @Override
        public void complete(CollectionSupplier<OUT> supplier) {
            Objects.requireNonNull(supplier, "supplier");
            if (completed.compareAndSet(false, true)) {
                task.execute(() -> entry.onOutcome(this, supply(supplier), null), "async results of "
                        + getOperatorName());
            }
        }

        private Collection<OUT> supply(CollectionSupplier<OUT> supplier) {
            try {
                return Objects.requireNonNull(supplier.get(), "The result supplier returned null");
            } catch (Exception e) {
                throw failure(entry.input, e);
            }
        }

        @Override
        public void completeExceptionally(Throwable error) {
            Objects.requireNonNull(error, "error");
            if (completed.compareAndSet(false, true)) {
                task.execute(() -> entry.onOutcome(this, null, error), "async failure of " + getOperatorName());
            }
        }
    }

    /** A watermark between the records; done from the start. */
    private final class WatermarkEntry implements StreamElementQueue.Entry {
        private final Watermark mark;

        WatermarkEntry(Watermark mark) {
            this.mark = mark;
        }

        @Override
        public boolean isDone() {
            return true;
        }

        @Override
        public boolean isWatermark() {
            return true;
        }

        @Override
        public void emit() {
            output.emitWatermark(mark);
        }
    }
}
