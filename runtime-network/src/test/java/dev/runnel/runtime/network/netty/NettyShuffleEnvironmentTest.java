package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.SecurityOptions;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.runnel.api.common.typeutils.base.StringSerializer;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.io.WatermarkEvent;
import dev.runnel.runtime.io.WatermarkStatusEvent;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** Records and events between two TaskManagers over the Netty data plane on loopback. */
@Timeout(value = 60, unit = TimeUnit.SECONDS)
class NettyShuffleEnvironmentTest extends NettyShuffleTestBase {

    /** Strings of 0 to 10 000 characters: many fit a 4 KiB buffer, some span three. */
    static List<String> records(int count, long seed) {
        Random random = new Random(seed);
        List<String> out = new ArrayList<>(count);
        for (int i = 0; i < count; i++) {
            int length = random.nextInt(20) == 0 ? random.nextInt(10_000) : random.nextInt(40);
            out.add(i + ":" + "x".repeat(length));
        }
        return out;
    }

    @Test
    void recordsAndEventsCrossTaskManagersExactlyOnceAndInOrder() throws Exception {
        NettyShuffleEnvironment a = start(config("tm-a", SECRET));
        NettyShuffleEnvironment b = start(config("tm-b", SECRET));
        List<String> toB = records(20_000, 1);
        List<String> toA = records(5_000, 2);
        AtomicReference<Throwable> failure = new AtomicReference<>();
        // Producer subtask 0 on tm-a sends to consumer 0 on tm-a (memory) and consumer 1 on tm-b (network).
        Thread producer = new Thread(() -> {
            TaskWaker waker = TaskWaker.forCurrentThread();
            try {
                ResultPartitionWriter writer = writer(a, "e", 0, List.of(a, b), StringSerializer.INSTANCE, waker);
                for (int i = 0; i < toB.size(); i++) {
                    writer.emitRecord(toB.get(i), i, 1);
                    if (i < toA.size()) {
                        writer.emitRecord(toA.get(i), i, 0);
                    }
                    if (i == 10_000) {
                        writer.broadcastEvent(new WatermarkEvent(10_000));
                        writer.broadcastEvent(WatermarkStatusEvent.IDLE);
                    }
                }
                writer.finish();
                writer.close();
            } catch (Throwable t) {
                failure.set(t);
            }
        }, "producer");
        producer.start();
        TaskWaker me = TaskWaker.forCurrentThread();
        InputGate remote = gate(b, "e", 1, List.of(a), StringSerializer.INSTANCE, me);
        List<Object> received = drain(remote, me, 30_000).get(0);
        remote.close();
        producer.join();
        assertThat(failure.get()).isNull();

        List<Object> expected = new ArrayList<>(toB.subList(0, 10_001));
        expected.add("WatermarkEvent[timestamp=10000]");
        expected.add("WatermarkStatusEvent[idle=true]");
        expected.addAll(toB.subList(10_001, toB.size()));
        expected.add("EndOfPartition");
        assertThat(received).containsExactlyElementsOf(expected);

        InputGate inMemory = gate(a, "e", 0, List.of(a), StringSerializer.INSTANCE, me);
        List<Object> local = drain(inMemory, me, 10_000).get(0);
        assertThat(local).hasSize(toA.size() + 3).startsWith(toA.get(0), toA.get(1)).endsWith("EndOfPartition");
        inMemory.close();

        long bytesOut = a.metrics().getAllMetrics().entrySet().stream()
                .filter(e -> e.getKey().endsWith("e.0-1.numBytesOut")).count();
        assertThat(bytesOut).as("the network channel counts what it sent").isEqualTo(1);
        assertPoolsFull();
    }

    @Test
    void aConsumerThatDoesNotReadHoldsItsProducerBackWithoutExhaustingThePool() throws Exception {
        NettyShuffleEnvironment a = start(config("tm-a", SECRET));
        NettyShuffleEnvironment b = start(config("tm-b", SECRET));
        TaskWaker me = TaskWaker.forCurrentThread();
        InputGate gate = gate(b, "e", 0, List.of(a), StringSerializer.INSTANCE, me);
        ResultPartitionWriter writer = writer(a, "e", 0, List.of(b), StringSerializer.INSTANCE, me);
        String record = "y".repeat(1000);
        int written = 0;
        CompletableFuture<Void> room;
        while (true) {
            while (writer.emitRecord(record, written, 0)) {
                written++;
            }
            written++;
            assertThat(written).as("credit bounds what goes out").isLessThan(200);
            room = writer.getAvailableFuture();
            try {
                room.get(300, TimeUnit.MILLISECONDS);
            } catch (java.util.concurrent.TimeoutException saturated) {
                break; // no credit left and the producer's queue is full: nothing moves until the consumer reads
            }
        }
        assertThat(writer.isAvailable()).as("the writer reports backpressure").isFalse();
        // 4 KiB buffers of 4 records: 10 queued at the producer plus 2 exclusive + 8 floating credited buffers.
        assertThat(written).isLessThanOrEqualTo(4 * (10 + 2 + 8) + 8);
        assertThat(room).isNotDone();
        assertThat(gaugeValue(a, "e.out-0.outputQueueLength")).as("the producer's queue is full").isGreaterThanOrEqualTo(10);
        assertThat(gaugeValue(b, "e.in-0-1.inputQueueLength")).as("the consumer holds credited buffers").isPositive();
        assertThat(a.bufferPool().availableBuffers()).as("the producer holds only its bounded share")
                .isGreaterThan(a.bufferPool().totalBuffers() / 2);

        RecordBatch first = null;
        long readDeadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while ((first = gate.pollNext()) == null && System.nanoTime() < readDeadline) {
            Thread.sleep(1);
        }
        assertThat(first).isNotNull();
        assertThat(first.value(0)).isEqualTo(record);
        room.get(10, TimeUnit.SECONDS);
        writer.finish();
        writer.close();
        int count = first.size();
        gate.recycle(first);
        for (Object value : drain(gate, me, 10_000).get(0)) {
            if (value.equals(record)) {
                count++;
            }
        }
        assertThat(count).isEqualTo(written);
        gate.close();
        assertPoolsFull();
    }

    @SuppressWarnings("unchecked")
    private static int gaugeValue(NettyShuffleEnvironment env, String suffix) {
        return env.metrics().getAllMetrics().entrySet().stream().filter(e -> e.getKey().endsWith(suffix))
                .map(e -> ((dev.runnel.metrics.Gauge<Integer>) e.getValue()).getValue()).findFirst()
                .orElseThrow(() -> new AssertionError("no gauge " + suffix + " in " + env.metrics().getAllMetrics().keySet()));
    }

    @Test
    void cancellingBothEndsMidStreamReturnsEveryBuffer() throws Exception {
        NettyShuffleEnvironment a = start(config("tm-a", SECRET));
        NettyShuffleEnvironment b = start(config("tm-b", SECRET));
        TaskWaker me = TaskWaker.forCurrentThread();
        InputGate gate = gate(b, "e", 0, List.of(a), StringSerializer.INSTANCE, me);
        ResultPartitionWriter writer = writer(a, "e", 0, List.of(b), StringSerializer.INSTANCE, me);
        for (int i = 0; i < 30 && writer.emitRecord("z".repeat(500), i, 0); i++) {
            // fill some buffers and credit
        }
        writer.flushAll();
        await(gate::isAvailable, "data arrived");
        assertThat(gate.pollNext()).isNotNull();
        gate.close();   // consumer cancelled while buffers are in flight
        writer.close(); // producer cancelled without finishing
        assertPoolsFull();
    }

    @Test
    void aWrongSecretIsRefusedAndTheServerKeepsServingOthers() throws Exception {
        NettyShuffleEnvironment a = start(config("tm-a", SECRET));
        NettyShuffleEnvironment intruder = start(config("tm-x", "not-the-secret"));
        TaskWaker me = TaskWaker.forCurrentThread();
        assertThatThrownBy(() -> gate(intruder, "e", 0, List.of(a), StringSerializer.INSTANCE, me))
                .isInstanceOf(ChannelFailedException.class)
                .hasMessageContaining("tm-a")
                .hasMessageContaining("cluster secret");

        NettyShuffleEnvironment b = start(config("tm-b", SECRET));
        InputGate gate = gate(b, "e", 0, List.of(a), StringSerializer.INSTANCE, me);
        ResultPartitionWriter writer = writer(a, "e", 0, List.of(b), StringSerializer.INSTANCE, me);
        writer.emitRecord("still working", 7, 0);
        writer.finish();
        writer.close();
        assertThat(drain(gate, me, 10_000).get(0)).containsExactly("still working", "EndOfPartition");
        gate.close();
        assertPoolsFull();
    }

    @Test
    void theNetworkShuffleRefusesToStartWithoutASecret() {
        assertThatThrownBy(() -> start(config("tm-a", SECRET).setString(SecurityOptions.CLUSTER_SECRET.key(), " ")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("security.cluster.secret");
    }
}
