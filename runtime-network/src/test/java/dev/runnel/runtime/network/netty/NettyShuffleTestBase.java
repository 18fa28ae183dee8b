package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.NettyShuffleEnvironmentOptions;
import dev.runnel.configuration.SecurityOptions;
import dev.runnel.configuration.TaskManagerOptions;
import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.RecordBatch;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.AfterEach;

/** Two (or more) TaskManagers' network shuffles on loopback, and helpers to wire channels between them. */
abstract class NettyShuffleTestBase {

    static final String SECRET = "test-secret-0123456789";

    final List<NettyShuffleEnvironment> environments = new ArrayList<>();

    static Configuration config(String taskManager, String secret) {
        return new Configuration()
                .set(TaskManagerOptions.TASK_MANAGER_RESOURCE_ID, taskManager)
                .set(SecurityOptions.CLUSTER_SECRET, secret)
                .set(NettyShuffleEnvironmentOptions.NETWORK_NUM_BUFFERS, 64)
                .setString(TaskManagerOptions.MEMORY_SEGMENT_SIZE.key(), "4kb");
    }

    NettyShuffleEnvironment start(Configuration configuration) {
        NettyShuffleEnvironment env = new NettyShuffleEnvironment(configuration);
        environments.add(env);
        return env;
    }

    @AfterEach
    void closeEnvironments() {
        environments.forEach(NettyShuffleEnvironment::close);
    }

    static TaskLocation at(NettyShuffleEnvironment env) {
        return env.location(0);
    }

    /** A writer on {@code producerEnv} for edge {@code edge}, producer {@code producer}, one subpartition per consumer. */
    static ResultPartitionWriter writer(NettyShuffleEnvironment producerEnv, String edge, int producer,
            List<NettyShuffleEnvironment> consumerEnvs, TypeSerializer<?> serializer, TaskWaker waker) {
        List<ChannelDescriptor> channels = new ArrayList<>();
        for (int c = 0; c < consumerEnvs.size(); c++) {
            channels.add(new ChannelDescriptor(new ChannelId(edge, producer, c), at(producerEnv), at(consumerEnvs.get(c))));
        }
        return producerEnv.createResultPartitionWriter(
                new ResultPartitionDeploymentDescriptor(edge, producer, serializer, channels), waker);
    }

    /** A gate on {@code consumerEnv} for consumer {@code consumer} of edge {@code edge}, one channel per producer. */
    static InputGate gate(NettyShuffleEnvironment consumerEnv, String edge, int consumer,
            List<NettyShuffleEnvironment> producerEnvs, TypeSerializer<?> serializer, TaskWaker waker) {
        List<ChannelDescriptor> channels = new ArrayList<>();
        for (int p = 0; p < producerEnvs.size(); p++) {
            channels.add(new ChannelDescriptor(new ChannelId(edge, p, consumer), at(producerEnvs.get(p)), at(consumerEnv)));
        }
        return consumerEnv.createInputGate(new InputGateDeploymentDescriptor(1, serializer, channels), waker);
    }

    /** Reads the gate until every channel ended; values (or event names) by channel, in arrival order. */
    static List<List<Object>> drain(InputGate gate, TaskWaker waker, long timeoutMillis) {
        List<List<Object>> byChannel = new ArrayList<>();
        for (int i = 0; i < gate.getNumberOfInputChannels(); i++) {
            byChannel.add(new ArrayList<>());
        }
        long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(timeoutMillis);
        while (!gate.isFinished()) {
            RecordBatch batch = gate.pollNext();
            if (batch == null) {
                assertThat(System.nanoTime()).as("the gate finishes in time").isLessThan(deadline);
                waker.prepareToPark();
                if (!gate.isAvailable()) {
                    waker.park(TimeUnit.MILLISECONDS.toNanos(5));
                } else {
                    waker.cancelPark();
                }
                continue;
            }
            List<Object> channel = byChannel.get(gate.lastChannel());
            if (batch.isEvent()) {
                channel.add(batch.event().toString());
            } else {
                for (int i = 0; i < batch.size(); i++) {
                    channel.add(batch.value(i));
                }
                gate.recycle(batch);
            }
        }
        return byChannel;
    }

    /** Waits (bounded) until {@code condition} holds. */
    static void await(BooleanSupplier condition, String what) throws InterruptedException {
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(10);
        while (!condition.getAsBoolean()) {
            assertThat(System.nanoTime()).as(what).isLessThan(deadline);
            Thread.sleep(5);
        }
    }

    /** Every pool of every environment holds all its buffers again. */
    void assertPoolsFull() throws InterruptedException {
        for (NettyShuffleEnvironment env : environments) {
            NetworkBufferPool pool = env.bufferPool();
            await(() -> pool.availableBuffers() == pool.totalBuffers(),
                    "every buffer of " + env.taskManagerId() + " is back (" + pool.availableBuffers() + " of "
                            + pool.totalBuffers() + ")");
        }
    }
}
