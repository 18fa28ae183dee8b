package dev.runnel.runtime.network.local;

import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.shuffle.ChannelId;

/**
 * One in-memory channel between a producer and a consumer subtask of the same JVM: a bounded ring
 * of batches and events going downstream, and a ring of emptied batches coming back for reuse.
 *
 * <p>The producer blocks while the channel is full (backpressure); the consumer never blocks here, it
 * polls. The wakers are attached by whichever end is created, in any order, and read through
 * volatile fields.
 */
final class LocalChannel {

    private final ChannelId id;
    private final SpscRing data;
    private final SpscRing recycled;
    private volatile TaskWaker producerWaker;
    private volatile TaskWaker consumerWaker;

    LocalChannel(ChannelId id, int capacity) {
        this.id = id;
        this.data = new SpscRing(capacity);
        this.recycled = new SpscRing(capacity + 2);
    }

    ChannelId id() {
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
     * Producer: hands {@code element} (a batch or an event) downstream, parking while the channel is
     * full. Throws InterruptedException when the producer's thread is interrupted (job cancelled).
     */
    void send(Object element, TaskWaker self) throws InterruptedException {
        while (!data.offer(element)) {
            self.prepareToPark();
            if (data.offer(element)) {
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
    }

    /** Consumer: the next batch or event, or null. Wakes a producer waiting for room. */
    Object poll() {
        Object element = data.poll();
        if (element != null) {
            TaskWaker producer = producerWaker;
            if (producer != null) {
                producer.wake();
            }
        }
        return element;
    }

    /** Consumer: whether {@link #poll()} would return something. */
    boolean hasData() {
        return !data.isEmptyForConsumer();
    }

    /** Consumer: returns an emptied batch to the producer; dropped if the return ring is full. */
    void recycle(RecordBatch batch) {
        batch.clear();
        recycled.offer(batch);
    }

    /** Producer: an emptied batch to reuse, or null. */
    RecordBatch takeRecycled() {
        return (RecordBatch) recycled.poll();
    }

    /** Elements waiting in the channel (approximate), for tests and metrics. */
    int queuedElements() {
        return data.size();
    }
}
