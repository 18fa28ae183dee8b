package dev.runnel.runtime.network.local;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.configuration.Configuration;
import dev.runnel.api.common.typeutils.base.BytePrimitiveArraySerializer;
import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.core.memory.CorruptDataException;
import dev.runnel.core.memory.DataInputDeserializer;
import dev.runnel.core.memory.DataOutputSerializer;
import dev.runnel.runtime.io.AvailabilityProvider;
import dev.runnel.runtime.io.ChannelEvent;
import dev.runnel.runtime.io.ChannelEventCodec;
import dev.runnel.runtime.io.EndOfPartitionEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.ShuffleServiceFactory;
import java.util.ArrayList;
import java.util.Collections;
import java.util.IdentityHashMap;
import java.util.List;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
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
                .set(LocalShuffleEnvironment.CHANNEL_CAPACITY, capacity)
                .set(LocalShuffleEnvironment.MAX_OVERDRAFT_BATCHES, 0);
    }

    private static final TaskLocation HERE = TaskLocation.embedded(0);

    /** A writer of edge {@code edge}, producer subtask {@code producer}, to consumer subtask 0. */
    private static ResultPartitionWriter writer(ShuffleEnvironment env, String edge, int producer, TaskWaker waker) {
        return writer(env, edge, producer, new int[] {0}, null, waker);
    }

    private static ResultPartitionWriter writer(ShuffleEnvironment env, String edge, int producer, int[] consumers,
            TypeSerializer<?> serializer, TaskWaker waker) {
        List<ChannelDescriptor> channels = new ArrayList<>();
        for (int consumer : consumers) {
            channels.add(new ChannelDescriptor(new ChannelId(edge, producer, consumer), HERE, HERE));
        }
        return env.createResultPartitionWriter(
                new ResultPartitionDeploymentDescriptor(edge, producer, serializer, channels), waker);
    }

    private static InputGate gate(ShuffleEnvironment env, List<ChannelId> ids, TaskWaker waker) {
        List<ChannelDescriptor> channels = new ArrayList<>();
        for (ChannelId id : ids) {
            channels.add(new ChannelDescriptor(id, HERE, HERE));
        }
        return env.createInputGate(new InputGateDeploymentDescriptor(1, null, channels), waker);
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
        ResultPartitionWriter writer = writer(env, "e1", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e1", 0, 0)), me);

        for (int i = 0; i < 10; i++) {
            writer.emitRecord("r" + i, 100 + i, 0);
        }
        writer.broadcastEvent(new WatermarkEvent(105));
        writer.emitRecord("late", RecordBatch.NO_TIMESTAMP, 0);
        writer.finish();

        List<String> seen = new ArrayList<>();
        while (!gate.isFinished()) {
            RecordBatch batch = gate.pollNext();
            assertThat(batch).as("everything was written before reading").isNotNull();
            if (!batch.isEvent()) {
                for (int i = 0; i < batch.size(); i++) {
                    seen.add(batch.value(i) + "@" + batch.timestamp(i));
                }
                gate.recycle(batch);
            } else {
                seen.add(batch.event().toString());
            }
        }
        assertThat(seen).containsExactly(
                "r0@100", "r1@101", "r2@102", "r3@103", "r4@104", "r5@105", "r6@106", "r7@107",
                "r8@108", "r9@109", "WatermarkEvent[timestamp=105]",
                "late@" + RecordBatch.NO_TIMESTAMP, "EndOfPartition");
        assertThat(gate.pollNext()).isNull();
    }

    @Test
    void keyHashesAndKeyGroupsTravelWithTheRecordsOfAKeyByEdge() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(4, 16));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e1", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e1", 0, 0)), me);

        for (int i = 0; i < 8; i++) {
            writer.emitKeyedRecord("k" + i, i, 1000 + i, i % 128, 128, 0); // two full batches of four
        }
        writer.emitKeyedRecord("m0", 8, 2000, 7, 128, 0);
        writer.emitRecord("plain", 9, 0); // one record without them: its batch carries none
        writer.emitKeyedRecord("o0", 10, 3000, 3, 64, 0);
        writer.emitKeyedRecord("o1", 11, 3001, 4, 128, 0); // another max parallelism in the same batch: none
        writer.finish();

        List<String> seen = new ArrayList<>();
        while (!gate.isFinished()) {
            RecordBatch batch = gate.pollNext();
            assertThat(batch).isNotNull();
            if (batch.isEvent()) {
                continue;
            }
            StringBuilder line = new StringBuilder("of " + batch.keyGroupsOf() + ":");
            for (int i = 0; i < batch.size(); i++) {
                line.append(' ').append(batch.value(i));
                if (batch.keyGroupsOf() != 0) {
                    line.append('/').append(batch.keyHash(i)).append('/').append(batch.keyGroup(i));
                }
            }
            seen.add(line.toString());
            gate.recycle(batch);
        }
        assertThat(seen).containsExactly(
                "of 128: k0/1000/0 k1/1001/1 k2/1002/2 k3/1003/3",
                "of 128: k4/1004/4 k5/1005/5 k6/1006/6 k7/1007/7",
                "of 0: m0 plain o0 o1");
    }

    @Test
    void anUnalignedBarrierOvertakesQueuedBatchesAndIsAlsoDeliveredInOrder() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(2, 16));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e1", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e1", 0, 0)), me);
        dev.runnel.runtime.io.CheckpointBarrier barrier = new dev.runnel.runtime.io.CheckpointBarrier(3, 4,
                dev.runnel.runtime.checkpoint.CheckpointOptions.checkpoint(true, true));
        for (int i = 0; i < 5; i++) {
            writer.emitRecord("r" + i, i, 0);
        }
        writer.broadcastEvent(barrier);
        writer.emitRecord("after", 9, 0);
        writer.flushAll();

        List<String> seen = new ArrayList<>();
        RecordBatch element;
        while ((element = gate.pollNext()) != null) {
            if (element.isEvent()) {
                seen.add((element.isPriority() ? "priority " : "") + "barrier " + ((dev.runnel.runtime.io.CheckpointBarrier)
                        element.event()).id());
            } else {
                for (int i = 0; i < element.size(); i++) {
                    seen.add((String) element.value(i));
                }
                gate.recycle(element);
            }
        }
        // The open batch (r4) was flushed behind the queued ones before the in-order copy.
        assertThat(seen).containsExactly("priority barrier 3", "r0", "r1", "r2", "r3", "r4", "barrier 3", "after");
    }

    @Test
    void anAlignedBarrierDoesNotOvertake() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(2, 16));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e1", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e1", 0, 0)), me);
        writer.emitRecord("r0", 0, 0);
        writer.emitRecord("r1", 0, 0);
        writer.broadcastEvent(new dev.runnel.runtime.io.CheckpointBarrier(3, 4,
                dev.runnel.runtime.checkpoint.CheckpointOptions.checkpoint(true)));
        RecordBatch first = gate.pollNext();
        assertThat(first.isEvent()).isFalse();
        gate.recycle(first);
        RecordBatch second = gate.pollNext();
        assertThat(second.isEvent()).isTrue();
        assertThat(second.isPriority()).isFalse();
        assertThat(gate.pollNext()).isNull();
    }

    @Test
    void aTimedOutBarrierStillQueuedIsOvertakenByItsPriorityCopyAlone() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(2, 16));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e1", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e1", 0, 0)), me);
        writer.emitRecord("r0", 0, 0);
        writer.emitRecord("r1", 0, 0);
        var timeoutable = dev.runnel.runtime.checkpoint.CheckpointOptions.checkpoint(true, true, 50);
        writer.broadcastEvent(new dev.runnel.runtime.io.CheckpointBarrier(5, 6, timeoutable));
        writer.broadcastPriorityEvent(new dev.runnel.runtime.io.CheckpointBarrier(5, 6, timeoutable.toUnaligned()));
        List<String> seen = new java.util.ArrayList<>();
        RecordBatch element;
        while ((element = gate.pollNext()) != null) {
            if (element.isEvent()) {
                seen.add((element.isPriority() ? "priority " : "") + element.event());
            } else {
                for (int i = 0; i < element.size(); i++) {
                    seen.add((String) element.value(i));
                }
                gate.recycle(element);
            }
        }
        assertThat(seen).hasSize(4);
        assertThat(seen.get(0)).startsWith("priority ").contains("checkpoint(unaligned)");
        assertThat(seen.subList(1, 3)).containsExactly("r0", "r1");
        assertThat(seen.get(3)).doesNotStartWith("priority ").contains("aligned checkpoint timeout 50 ms");
        assertThatThrownBy(() -> writer.broadcastPriorityEvent(new dev.runnel.runtime.io.CheckpointBarrier(6, 7,
                timeoutable))).isInstanceOf(IllegalArgumentException.class).hasMessageContaining("priority event");
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
                ResultPartitionWriter writer = writer(env, "e", 0, waker);
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
        InputGate gate = gate(env, List.of(new ChannelId("e", 0, 0)), consumerWaker);

        // With batch size 1 and two slots, the producer must stop after a couple of records.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(2);
        while (producer.getState() != Thread.State.TIMED_WAITING && producer.getState() != Thread.State.WAITING
                && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(written.get()).as("the producer is held back by the bounded channel").isLessThanOrEqualTo(3);

        List<Integer> received = new ArrayList<>();
        while (!gate.isFinished()) {
            RecordBatch batch = gate.pollNext();
            if (batch == null) {
                consumerWaker.prepareToPark();
                consumerWaker.park(TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            if (!batch.isEvent()) {
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
                        writer(env, "e", 0, TaskWaker.forCurrentThread());
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
        InputGate gate = gate(env, ids, consumerWaker);
        List<Thread> threads = new ArrayList<>();
        for (int p = 0; p < producers; p++) {
            int producerIndex = p;
            Thread t = new Thread(() -> {
                try {
                    ResultPartitionWriter w = writer(env, "e", producerIndex, TaskWaker.forCurrentThread());
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
            RecordBatch batch = gate.pollNext();
            if (batch == null) {
                consumerWaker.prepareToPark();
                consumerWaker.park(TimeUnit.MILLISECONDS.toNanos(10));
                continue;
            }
            if (!batch.isEvent()) {
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
                assertThat(batch.event()).isSameAs(EndOfPartitionEvent.INSTANCE);
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
                writer(env, "e", 0, TaskWaker.forCurrentThread());
        writer.finish();
        assertThatThrownBy(() -> writer.emitRecord("x", 0, 0))
                .isInstanceOf(IllegalStateException.class).hasMessageContaining("after end of input");
    }

    @Test
    void thePoolHoldsABatchForEveryHandOverUpToTheSoftBoundFromTheFirstRecycleOn() throws Exception {
        // Batch size 1, capacity 4: every record is a hand-over. First the consumer keeps up (one batch in
        // flight), then it lags until the writer turns unavailable before draining. Every batch the lagging
        // phase uses must already have gone round while it kept up: none is made when the channel first
        // fills, long after start-up, which is where a pool grown one batch at a time found itself empty.
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 4));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e", 0, 0)), me);
        Set<RecordBatch> keptUp = Collections.newSetFromMap(new IdentityHashMap<>());
        Set<RecordBatch> lagged = Collections.newSetFromMap(new IdentityHashMap<>());
        int next = 0;
        for (int i = 0; i < 20; i++) {
            writer.emitRecord(next++, 0, 0);
            RecordBatch batch = gate.pollNext();
            keptUp.add(batch);
            gate.recycle(batch);
        }
        for (int round = 0; round < 10; round++) {
            while (writer.emitRecord(next++, 0, 0)) {
                // until the channel is at its soft bound
            }
            for (RecordBatch batch = gate.pollNext(); batch != null; batch = gate.pollNext()) {
                lagged.add(batch);
                gate.recycle(batch);
            }
        }
        assertThat(keptUp).as("capacity + 2 batches go round while the consumer keeps up").hasSize(6);
        assertThat(keptUp).containsAll(lagged);
    }

    @Test
    void theWriterTurnsUnavailableAtCapacityAndStillTakesTheBoundedOverdraft() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(
                config(1, 2).set(LocalShuffleEnvironment.MAX_OVERDRAFT_BATCHES, 3));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter writer = writer(env, "e", 0, me);
        InputGate gate = gate(env, List.of(new ChannelId("e", 0, 0)), me);

        assertThat(writer.emitRecord(0, 0, 0)).as("one batch queued, capacity two").isTrue();
        assertThat(writer.emitRecord(1, 0, 0)).as("the channel is at capacity").isFalse();
        assertThat(writer.isAvailable()).isFalse();
        CompletableFuture<Void> room = writer.getAvailableFuture();
        assertThat(room).isNotDone();
        // A record in flight may still emit: three more batches go in without waiting.
        for (int i = 2; i < 5; i++) {
            assertThat(writer.emitRecord(i, 0, 0)).isFalse();
        }
        assertThat(gate.pollNext().value(0)).isEqualTo(0);
        assertThat(writer.isAvailable()).as("four still queued").isFalse();
        gate.pollNext();
        gate.pollNext();
        assertThat(writer.isAvailable()).as("two queued, at capacity").isFalse();
        assertThat(room).as("the producer is resumed only at half the capacity").isNotDone();
        gate.pollNext();
        assertThat(room).as("one queued: half the capacity").isDone();
        assertThat(writer.isAvailable()).as("one queued, below capacity").isTrue();
        assertThat(writer.getAvailableFuture()).isSameAs(AvailabilityProvider.AVAILABLE);
    }

    @Test
    @Timeout(30)
    void aProducerParkedAtTheHardBoundIsResumedWhenTheConsumerDrains() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 8));
        TaskWaker consumer = TaskWaker.forCurrentThread();
        InputGate gate = gate(env, List.of(new ChannelId("h", 0, 0)), consumer);
        AtomicInteger sent = new AtomicInteger();
        AtomicReference<Throwable> failure = new AtomicReference<>();
        Thread producer = new Thread(() -> {
            try {
                TaskWaker self = TaskWaker.forCurrentThread();
                ResultPartitionWriter writer = writer(env, "h", 0, self);
                for (int i = 0; i < 12; i++) {
                    writer.emitRecord(i, 0, 0); // a batch of one each; the ninth parks at the hard bound
                    sent.incrementAndGet();
                }
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "held-back-producer");
        producer.start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (sent.get() < 8 && System.nanoTime() < deadline) {
            Thread.onSpinWait();
        }
        assertThat(sent.get()).as("eight batches fit").isEqualTo(8);
        for (int taken = 0; taken < 4; taken++) {
            assertThat(gate.pollNext().value(0)).isEqualTo(taken);
        }
        for (int taken = 4; taken < 12; taken++) {
            RecordBatch batch;
            while ((batch = gate.pollNext()) == null && System.nanoTime() < deadline) {
                Thread.onSpinWait();
            }
            assertThat(batch).as("batch %d arrives", taken).isNotNull();
            assertThat(batch.value(0)).isEqualTo(taken);
        }
        producer.join(TimeUnit.SECONDS.toMillis(10));
        assertThat(failure.get()).isNull();
        assertThat(sent.get()).isEqualTo(12);
    }

    @Test
    void aBlockedChannelIsSkippedUntilResumedAndKeepsItsData() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 8));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter w0 = writer(env, "e", 0, me);
        ResultPartitionWriter w1 = writer(env, "e", 1, me);
        InputGate gate = gate(env, List.of(new ChannelId("e", 0, 0), new ChannelId("e", 1, 0)), me);
        w0.emitRecord("a0", 0, 0);
        w0.emitRecord("a1", 0, 0);
        w1.emitRecord("b0", 0, 0);

        gate.blockChannel(0);
        assertThat(gate.isBlocked(0)).isTrue();
        RecordBatch first = gate.pollNext();
        assertThat(first.value(0)).isEqualTo("b0");
        assertThat(gate.lastChannel()).isEqualTo(1);
        gate.recycle(first);
        assertThat(gate.pollNext()).as("channel 0 is held").isNull();
        assertThat(gate.isAvailable()).isFalse();
        CompletableFuture<Void> data = gate.getAvailableFuture();
        assertThat(data).isNotDone();
        w1.emitRecord("b1", 0, 0);
        assertThat(data).as("an unblocked channel received data").isDone();

        gate.resumeAllChannels();
        List<Object> rest = new ArrayList<>();
        for (RecordBatch b; (b = gate.pollNext()) != null; ) {
            rest.add(b.value(0));
            gate.recycle(b);
        }
        assertThat(rest).containsExactlyInAnyOrder("a0", "a1", "b1");
        assertThat(rest.indexOf("a0")).isLessThan(rest.indexOf("a1"));
    }

    @Test
    void mutableValuesAreCopiedByTheWriterAndImmutableOnesAreNot() throws Exception {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(2, 8));
        TaskWaker me = TaskWaker.forCurrentThread();
        ResultPartitionWriter bytes = writer(env, "m", 0, new int[] {0}, BytePrimitiveArraySerializer.INSTANCE, me);
        ResultPartitionWriter strings = writer(env, "s", 0, new int[] {0}, StringSerializer.INSTANCE, me);
        byte[] reused = {1, 2, 3};
        bytes.emitRecord(reused, 0, 0);
        reused[0] = 9;
        bytes.emitRecord(reused, 0, 0);
        String text = "immutable";
        strings.broadcastRecord(text, 0);
        strings.flushAll();

        RecordBatch copies = gate(env, List.of(new ChannelId("m", 0, 0)), me).pollNext();
        assertThat((byte[]) copies.value(0)).containsExactly(1, 2, 3);
        assertThat((byte[]) copies.value(1)).containsExactly(9, 2, 3);
        assertThat(copies.value(0)).isNotSameAs(reused);
        assertThat(gate(env, List.of(new ChannelId("s", 0, 0)), me).pollNext().value(0)).isSameAs(text);
    }

    @Test
    void aChannelToAnotherTaskManagerIsRefusedWithTheReason() {
        ShuffleEnvironment env = new LocalShuffleEnvironment(config(1, 4));
        TaskLocation elsewhere = new TaskLocation("tm-2", null, 0);
        ChannelDescriptor remote = new ChannelDescriptor(new ChannelId("e", 0, 0), HERE, elsewhere);
        assertThatThrownBy(() -> env.createResultPartitionWriter(
                new ResultPartitionDeploymentDescriptor("e", 0, null, List.of(remote)), TaskWaker.forCurrentThread()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("e[0->0]").hasMessageContaining("two TaskManagers");
    }

    @Test
    void eventsSurviveTheirWireFormAndAnUnknownTagIsRefused() throws Exception {
        for (ChannelEvent event : List.of(new WatermarkEvent(-5), new WatermarkEvent(Long.MAX_VALUE),
                WatermarkStatusEvent.IDLE, WatermarkStatusEvent.ACTIVE, EndOfPartitionEvent.INSTANCE)) {
            DataOutputSerializer out = new DataOutputSerializer(16);
            ChannelEventCodec.write(event, out);
            DataInputDeserializer in = new DataInputDeserializer();
            in.setBuffer(out.getCopyOfBuffer(), 0, out.length());
            assertThat(ChannelEventCodec.read(in)).isEqualTo(event);
        }
        DataInputDeserializer bad = new DataInputDeserializer();
        bad.setBuffer(new byte[] {42}, 0, 1);
        assertThatThrownBy(() -> ChannelEventCodec.read(bad))
                .isInstanceOf(CorruptDataException.class).hasMessageContaining("unknown channel event tag 42");
    }

    @Test
    void rejectsBadConfiguration() {
        assertThatThrownBy(() -> new LocalShuffleEnvironment(config(0, 4)))
                .hasMessageContaining("shuffle.local.batch-size");
        assertThatThrownBy(() -> new LocalShuffleEnvironment(new Configuration().setString("shuffle.local.channel-capacity", "lots")))
                .hasMessageContaining("shuffle.local.channel-capacity").hasMessageContaining("lots");
    }
}
