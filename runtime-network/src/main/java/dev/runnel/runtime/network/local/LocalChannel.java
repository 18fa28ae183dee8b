package dev.runnel.runtime.network.local;

import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.network.partition.InputChannelReader;
import dev.runnel.runtime.shuffle.ChannelId;
import java.util.concurrent.CompletableFuture;

/**
 * One in-memory channel between a producer and a consumer subtask of the same JVM: a bounded ring
 * of batches and events going downstream, and a ring of emptied batches coming back for reuse.
 *
 * <p>The ring has two bounds. Below the soft bound ({@code capacity}) the channel has room and its
 * writer is available; between the soft and the hard bound ({@code capacity + overdraft}) a record that
 * is already being processed may still hand over what it emits; only at the hard bound does the producer
 * park, interruptibly. The consumer never blocks here, it polls. The wakers and the room listener are
 * attached by whichever end is created, in any order, and read through volatile fields.
 *
 * <p>A producer held back at a bound is resumed only once the consumer has taken the ring down to half
 * the soft bound ({@code resumeAt}), not by every poll: a producer faster than its consumer then wakes
 * once per several batches instead of once per batch, each wake-up being a system call on the consumer's
 * side and a context switch on the producer's. The consumer keeps polling a channel that holds data, so
 * it reaches that level unless it stops reading the channel altogether, in which case one more free place
 * would not have let the producer get anywhere either.
 *
 * <p>A small second ring is the priority lane: the overtaking copies of priority events (unaligned
 * checkpoint barriers) go there, and the consumer looks at it before the data ring, so such a barrier
 * passes every queued batch. The lane is almost always empty; checking it costs the consumer one read
 * of an index nobody writes meanwhile.
 */
final class LocalChannel implements InputChannelReader {

    /** Priority events in the lane at once: one per pending unaligned checkpoint, so a handful at most. */
    private static final int PRIORITY_CAPACITY = 8;

    private final ChannelId id;
    private final SpscRing data;
    private final SpscRing recycled;
    private final SpscRing priority = new SpscRing(PRIORITY_CAPACITY);
    private final int softCapacity;
    /** The level to which the consumer must drain the data ring before it resumes a held-back producer. */
    private final int resumeAt;
    /** Consumer thread only: whether {@link #fillPool} ran. */
    private boolean poolFilled;
    private volatile TaskWaker producerWaker;
    private volatile TaskWaker consumerWaker;
    private volatile CompletableFuture<Void> roomListener;
    private volatile CompletableFuture<Void> dataListener;

    LocalChannel(ChannelId id, int capacity, int overdraft) {
        this.id = id;
        this.softCapacity = capacity;
        this.resumeAt = capacity / 2;
        this.data = new SpscRing(capacity + overdraft);
        this.recycled = new SpscRing(capacity + overdraft + 2);
    }

    @Override
    public ChannelId id() {
        return id;
    }

    void attachProducer(TaskWaker waker) {
        this.producerWaker = waker;
    }

    void attachConsumer(TaskWaker waker) {
        this.consumerWaker = waker;
        // Anything sent before the consumer attached must not be missed.
        waker.wake();
    }

    /**
     * Producer: hands {@code element} (a batch or an event) downstream. Succeeds at once below the hard
     * bound; at it, parks until the consumer makes room. Throws InterruptedException when the producer's
     * thread is interrupted (cancellation).
     */
    void send(RecordBatch element, TaskWaker self) throws InterruptedException {
        offer(data, element, self);
    }

    /**
     * Producer: puts a priority event into the lane the consumer checks first; parks like {@link #send} in the
     * unlikely case that the lane is full (the consumer has not looked at the channel for several checkpoints).
     */
    void sendPriority(RecordBatch element, TaskWaker self) throws InterruptedException {
        offer(priority, element, self);
    }

    private void offer(SpscRing ring, RecordBatch element, TaskWaker self) throws InterruptedException {
        while (!ring.offer(element)) {
            self.prepareToPark();
            if (ring.offer(element)) {
                self.cancelPark();
                break;
            }
            self.park();
            if (Thread.interrupted()) {
                throw new InterruptedException("interrupted while channel " + id + " was full");
            }
        }
        TaskWaker consumer = consumerWaker;
        if (consumer != null) {
            consumer.wake();
        }
        CompletableFuture<Void> listener = dataListener;
        if (listener != null) {
            dataListener = null;
            listener.complete(null);
        }
    }

    /** Producer: whether the channel is below its soft bound, i.e. its writer may take more input. */
    boolean hasRoom() {
        return data.hasFewerThan(softCapacity);
    }

    /**
     * Producer: completes {@code listener} once the consumer has taken an element. The caller re-checks
     * {@link #hasRoom()} after registering, so a poll in between is not missed.
     */
    void notifyOnRoom(CompletableFuture<Void> listener) {
        roomListener = listener;
    }

    /** Consumer: completes {@code listener} once an element arrives (the caller re-checks after registering). */
    @Override
    public void notifyOnData(CompletableFuture<Void> listener) {
        dataListener = listener;
    }

    /**
     * Consumer: the next priority event if one waits, else the next batch or event, or null. Wakes a producer
     * waiting for room once the data ring is down to {@code resumeAt}.
     */
    @Override
    public RecordBatch poll() {
        RecordBatch element = (RecordBatch) priority.poll();
        if (element == null) {
            element = (RecordBatch) data.poll();
        }
        if (element != null && data.hasAtMostForConsumer(resumeAt)) {
            TaskWaker producer = producerWaker;
            if (producer != null) {
                producer.wake();
            }
            CompletableFuture<Void> listener = roomListener;
            if (listener != null) {
                roomListener = null;
                listener.complete(null);
            }
        }
        return element;
    }

    /** Consumer: whether {@link #poll()} would return something. */
    @Override
    public boolean hasData() {
        return !data.isEmptyForConsumer() || !priority.isEmptyForConsumer();
    }

    /** Consumer: returns an emptied batch to the producer; dropped if the return ring is full. */
    @Override
    public void recycle(RecordBatch batch) {
        batch.clear();
        if (!poolFilled) {
            fillPool(batch.capacity());
        }
        recycled.offer(batch);
    }

    /**
     * On the consumer's first recycle (it alone offers to the recycle ring), adds as many batches as the data
     * ring holds at its soft bound, so that the producer, which already made the one it sent and its next
     * open one, finds a recycled batch at every hand-over while no record overdraws the channel. Grown one at
     * a time instead, the pool ran dry now and then long after start-up, at the channel's first new peak, a
     * case the JIT had not seen while profiling: the trap threw the producer's whole compiled chain away, and
     * it could then stay interpreted for seconds (docs/BENCHMARKS.md, fifteenth session).
     */
    private void fillPool(int batchSize) {
        poolFilled = true;
        for (int i = 0; i < softCapacity; i++) {
            recycled.offer(new RecordBatch(batchSize));
        }
    }

    /** Nothing to release: the channel is owned by its environment and dies with the job. */
    @Override
    public void release() {}

    /** Producer: an emptied batch to reuse, or null. */
    RecordBatch takeRecycled() {
        return (RecordBatch) recycled.poll();
    }

    /** Elements waiting in the channel (approximate), for tests and metrics. */
    int queuedElements() {
        return data.size();
    }
}
