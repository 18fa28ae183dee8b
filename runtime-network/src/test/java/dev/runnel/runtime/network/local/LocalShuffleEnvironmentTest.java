package dev.runnel.runtime.network.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.ShuffleServiceFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.ServiceLoader;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

@Timeout(value = 60, unit = TimeUnit.SECONDS)
class LocalShuffleEnvironmentTest {

    private static Configuration config(int batchSize, int capacity) {
        return new Configuration()
                .set(LocalShuffleEnvironment.BATCH_SIZE, batchSize)
                .set(LocalShuffleEnvironment.CHANNEL_CAPACITY, capacity);
    }

    @Test
    void isFoundByNameThroughTheServiceLoader() {
        List<String> names = new ArrayList<>();
        ServiceLoader.load(ShuffleServiceFactory.class).forEach(f -> names.add(f.name()));
        assertThat(names).contains("local");
    }

    @Test
    void recordsAndEventsArriveInOrderAndTheGateEnds() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(4, 16));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = env.createResultPartitionWriter("e1", 0, new int[] {0}, me);
        InputGate gate = env.createInputGate(List.of(new ChannelId("e1", 0, 0)), me);

        for (int i = 0; i < 10; i++) {
            writer.emitRecord("r" + i, 100 + i, 0);
        }
        writer.broadcastEvent(new WatermarkEvent(105));
        writer.emitRecord("late", RecordBatch.NO_TIMESTAMP, 0);
        writer.finish();

        List<String> seen = new ArrayList<>();
        while (!gate.isFinished()) {
            Object element = gate.pollNext();
            assertThat(element).as("everything was written before reading").isNotNull();
            if (element instanceof RecordBatch batch) {
                for (int i = 0; i < batch.size(); i++) {
                    seen.add(batch.value(i) + "@" + batch.timestamp(i));
                }
                gate.recycle(batch);
            } else {
                seen.add(element.toString());
            }
        }
        assertThat(seen).containsExactly(
                "r0@100", "r1@101", "r2@102", "r3@103", "r4@104", "r5@105", "r6@106", "r7@107",
                "r8@108", "r9@109", "WatermarkEvent[timestamp=105]",
                "late@" + RecordBatch.NO_TIMESTAMP, "EndOfPartition");
        assertThat(gate.pollNext()).isNull();
    }

    @Test
    void aFullChannelBlocksTheProducerUntilTheConsumerReads() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 2));
        AtomicInteger written = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        CountDownLatch producerStarted = new CountDownLatch(1);
        Thread producer = new Thread(() -> {
            TaskWaker waker = TaskWaker.forCurrentThread();
            try {
                ResultPartitionWriter writer = env.createResultPartitionWriter("e", 0, new int[] {0}, waker);
                producerStarted.countDown();
                for (int i = 0; i < 100; i++) {
                    writer.emitRecord(i, 0, 0);
                    written.incrementAndGet();
                }
                writer.finish();
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        producer.start();
        producerStarted.await();
        TaskWaker consumerWaker = TaskWaker.forCurrentThread();
        InputGate gate = env.createInputGate(List.of(new ChannelId("e", 0, 0)), consumerWaker);

        // With batch size 1 and two slots, the producer must stop after a couple of records.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (producer.getState() != Thread.State.TIMED_WAITING && producer.getState() != Thread.State.WAITING
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(written.get()).as("the producer is held back by the bounded channel").isLessThanOrEqualTo(3);

        List<Integer> received = new ArrayList<>();
        while (!gate.isFinished()) {
            Object element = gate.pollNext();
            if (element == null) {
                consumerWaker.prepareToPark();
                consumerWaker.park(TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            if (element instanceof RecordBatch batch) {
                for (int i = 0; i < batch.size(); i++) {
                    received.add((Integer) batch.value(i));
                }
                gate.recycle(batch);
            }
        }
        producer.join();
        assertThat(failure.get()).isNull();
        assertThat(received).hasSize(100);
        for (int i = 0; i < 100; i++) {
            assertThat(received.get(i)).isEqualTo(i);
        }
    }

    @Test
    void aBlockedProducerStopsWhenInterrupted() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 1));
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                ResultPartitionWriter writer =
                        env.createResultPartitionWriter("e", 0, new int[] {0}, TaskWaker.forCurrentThread());
                for (int i = 0; i < 100; i++) {
                    writer.emitRecord(i, 0, 0);
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        });
        producer.start();
        while (producer.getState() != Thread.State.TIMED_WAITING) {
            Thread.onSpinWait();
        }
        producer.interrupt();
        producer.join();
        assertThat(failure.get()).isInstanceOf(InterruptedException.class).hasMessageContaining("e[0->0]");
    }

    @Test
    void manyProducersAllReachTheConsumerExactlyOnce() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(64, 4));
        int producers = 3;
        int perProducer = 200_000;
        TaskWaker consumerWaker = TaskWaker.forCurrentThread();
        List<ChannelId> ids = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            ids.add(new ChannelId("e", p, 0));
        }
        InputGate gate = env.createInputGate(ids, consumerWaker);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producerIndex = p;
            Thread t = new Thread(() -> {
                try {
                    ResultPartitionWriter w = env.createResultPartitionWriter(
                            "e", producerIndex, new int[] {0}, TaskWaker.forCurrentThread());
                    for (int i = 0; i < perProducer; i++) {
                        w.emitRecord((long) producerIndex * perProducer + i, i, 0);
                    }
                    w.finish();
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            threads.add(t);
            t.start();
        }
        long[] lastPerChannel = {-1, -1, -1};
        long count = 0;
        long sum = 0;
        while (!gate.isFinished()) {
            Object element = gate.pollNext();
            if (element == null) {
                consumerWaker.prepareToPark();
                consumerWaker.park(TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            if (element instanceof RecordBatch batch) {
                int channel = gate.lastChannel();
                for (int i = 0; i < batch.size(); i++) {
                    long ts = batch.timestamp(i);
                    assertThat(ts).as("per-channel order").isEqualTo(lastPerChannel[channel] + 1);
                    lastPerChannel[channel] = ts;
                    sum += (Long) batch.value(i);
                    count++;
                }
                gate.recycle(batch);
            } else {
                assertThat((ChannelEvent) element).isSameAs(EndOfPartitionEvent.INSTANCE);
            }
        }
        for (Thread t : threads) {
            t.join();
        }
        long n = (long) producers * perProducer;
        assertThat(count).isEqualTo(n);
        assertThat(sum).isEqualTo(n * (n - 1) / 2);
    }

    @Test
    void writingAfterFinishFailsClearly() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 4));
        ResultPartitionWriter writer =
                env.createResultPartitionWriter("e", 0, new int[] {0}, TaskWaker.forCurrentThread());
        writer.finish();
        assertThatThrownBy(() -> writer.emitRecord("x", 0, 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after end of input");
    }

    @Test
    void rejectsBadConfiguration() {
        assertThatThrownBy(() -> new LocalShuffleEnvironment(config(0, 4)))
                .hasMessageContaining("shuffle.local.batch-size");
        assertThatThrownBy(() -> new LocalShuffleEnvironment(new Configuration().setString("shuffle.local.channel-capacity", "lots")))
                .hasMessageContaining("shuffle.local.channel-capacity").hasMessageContaining("lots");
    }
}
