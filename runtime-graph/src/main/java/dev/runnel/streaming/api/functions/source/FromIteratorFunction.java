package dev.runnel.streaming.api.functions.source;

import java.util.Iterator;
import java.util.Objects;

/**
 * The source of {@code env.fromCollection(iterator, type)}: emits what the iterator returns, in
 * order, until it has no more (an iterator that never ends makes an unbounded stream, as Flink's
 * ThrottledIterator examples use it). Each record is emitted under the checkpoint lock. Not
 * parallel; not fault tolerant (the iterator's position is not checkpointed, as in Flink). The
 * iterator travels with the job, so it must be {@link java.io.Serializable}.
 *
 * @param <T> the record type
 */
public class FromIteratorFunction<T> implements SourceFunction<T> {

    private static final long serialVersionUID = 1L;

    private final Iterator<T> iterator;
    private volatile boolean running = true;

    public FromIteratorFunction(Iterator<T> iterator) {
        this.iterator = Objects.requireNonNull(iterator, "iterator");
    }

    @Override
    public void run(SourceContext<T> ctx) throws Exception {
        while (running && iterator.hasNext()) {
            T next = iterator.next();
            synchronized (ctx.getCheckpointLock()) {
                ctx.collect(next);
            }
        }
    }

    @Override
    public void cancel() {
        running = false;
    }
}
