package dev.runnel.streaming.api.operators.collect;

import dev.runnel.api.common.JobExecutionResult;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.execution.JobClient;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import dev.runnel.util.CloseableIterator;
import java.util.NoSuchElementException;
import java.util.UUID;
import java.util.concurrent.ArrayBlockingQueue;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

/**
 * {@code executeAndCollect}: a sink that hands the job's records to the calling thread through a
 * bounded queue in this JVM (so a slow reader backpressures the job instead of filling memory).
 * The sink runs with parallelism 1, as Flink's does. Closing the iterator before the end cancels the job.
 */
public final class CollectStreamSink {

    private static final int CAPACITY = 16 * 1024;
    private static final ConcurrentHashMap<String, BlockingQueue<Object>> QUEUES = new ConcurrentHashMap<>();

    private CollectStreamSink() {}

    /** Adds a collecting sink to {@code stream}, starts the job, and returns its records. */
    public static <T> CloseableIterator<T> executeAndCollect(DataStream<T> stream, String jobName) {
        String id = UUID.randomUUID().toString();
        BlockingQueue<Object> queue = new ArrayBlockingQueue<>(CAPACITY);
        QUEUES.put(id, queue);
        TypeSerializer<T> serializer = stream.getType().createSerializer(
                stream.getExecutionEnvironment().getConfig().getSerializerConfig());
        // One collecting subtask, as in Flink: records from a single upstream subtask keep their order.
        stream.addSink(new CollectSinkFunction<>(id, serializer)).name("Collect Sink").setParallelism(1);
        JobClient client;
        try {
            client = stream.getExecutionEnvironment().executeAsync(jobName);
        } catch (RuntimeException e) {
            QUEUES.remove(id);
            throw e;
        }
        return new ResultIterator<>(id, queue, client);
    }

    /** Puts each record (a copy, so later reuse upstream cannot change it) into the queue. */
    private static final class CollectSinkFunction<T> extends RichSinkFunction<T> {
        private static final long serialVersionUID = 1L;
        private final String id;
        private final TypeSerializer<T> serializer;

        CollectSinkFunction(String id, TypeSerializer<T> serializer) {
            this.id = id;
            this.serializer = serializer;
        }

        @Override
        public void invoke(T value) throws InterruptedException {
            BlockingQueue<Object> queue = QUEUES.get(id);
            if (queue == null) {
                throw new IllegalStateException("The collecting client of this job is gone (iterator closed)");
            }
            queue.put(serializer.copy(value));
        }
    }

    private static final class ResultIterator<T> implements CloseableIterator<T> {
        private final String id;
        private final BlockingQueue<Object> queue;
        private final JobClient client;
        private final CompletableFuture<JobExecutionResult> result;
        private Object next;
        private boolean closed;

        ResultIterator(String id, BlockingQueue<Object> queue, JobClient client) {
            this.id = id;
            this.queue = queue;
            this.client = client;
            this.result = client.getJobExecutionResult();
        }

        @Override
        public boolean hasNext() {
            if (next != null) {
                return true;
            }
            if (closed) {
                return false;
            }
            try {
                while (true) {
                    next = queue.poll(10, TimeUnit.MILLISECONDS);
                    if (next != null) {
                        return true;
                    }
                    if (result.isDone()) {
                        result.get();
                        next = queue.poll();
                        return next != null;
                    }
                }
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("Interrupted while waiting for the job's results", e);
            } catch (ExecutionException e) {
                throw new IllegalStateException(e.getCause().getMessage(), e.getCause());
            }
        }

        @Override
        @SuppressWarnings("unchecked")
        public T next() {
            if (!hasNext()) {
                throw new NoSuchElementException();
            }
            T value = (T) next;
            next = null;
            return value;
        }

        @Override
        public void close() throws Exception {
            if (closed) {
                return;
            }
            closed = true;
            if (!result.isDone()) {
                client.cancel().get(60, TimeUnit.SECONDS);
            }
            QUEUES.remove(id);
        }
    }
}
