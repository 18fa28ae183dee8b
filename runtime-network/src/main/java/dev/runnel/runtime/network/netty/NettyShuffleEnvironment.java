package dev.runnel.runtime.network.netty;

import dev.runnel.configuration.ConfigOption;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.NettyShuffleEnvironmentOptions;
import dev.runnel.configuration.SecurityOptions;
import dev.runnel.configuration.TaskManagerOptions;
import dev.runnel.metrics.MetricGroup;
import dev.runnel.metrics.SimpleMetricGroup;
import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import dev.runnel.runtime.network.local.LocalShuffleEnvironment;
import dev.runnel.runtime.network.partition.ChannelInputGate;
import dev.runnel.runtime.network.partition.ChannelResultPartitionWriter;
import dev.runnel.runtime.network.partition.InputChannelReader;
import dev.runnel.runtime.network.partition.SubpartitionWriter;
import dev.runnel.runtime.shuffle.ChannelDescriptor;
import dev.runnel.runtime.shuffle.ChannelId;
import dev.runnel.runtime.shuffle.InputGateDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ResultPartitionDeploymentDescriptor;
import dev.runnel.runtime.shuffle.ShuffleEnvironment;
import dev.runnel.runtime.shuffle.TaskLocation;
import io.netty.bootstrap.Bootstrap;
import io.netty.bootstrap.ServerBootstrap;
import io.netty.channel.Channel;
import io.netty.channel.ChannelFuture;
import io.netty.channel.EventLoopGroup;
import io.netty.channel.MultiThreadIoEventLoopGroup;
import io.netty.channel.epoll.Epoll;
import io.netty.channel.epoll.EpollIoHandler;
import io.netty.channel.nio.NioIoHandler;
import io.netty.util.concurrent.DefaultThreadFactory;
import io.netty.util.concurrent.Promise;
import java.net.InetSocketAddress;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The shuffle of one TaskManager that may exchange records with others: channels whose two ends share
 * this TaskManager stay in memory (the same path as {@link LocalShuffleEnvironment}); every other channel
 * goes over Netty, multiplexed on one authenticated TCP connection per pair of TaskManagers (the consumer
 * connects to the producer's data server), with credit-based flow control and buffers from this
 * TaskManager's bounded {@link NetworkBufferPool}. Thread-safe.
 */
public final class NettyShuffleEnvironment implements ShuffleEnvironment {

    private static final Logger LOG = LoggerFactory.getLogger(NettyShuffleEnvironment.class);

    private final String taskManagerId;
    private final LocalShuffleEnvironment local;
    private final NetworkBufferPool bufferPool;
    private final Authenticator authenticator;
    private final TlsContexts.Pair tls;
    private final EventLoopGroup eventLoop;
    private final Channel server;
    private final InetSocketAddress dataAddress;
    private final int exclusiveBuffers;
    private final int floatingBuffers;
    private final int maxBuffersPerChannel;
    private final int batchSize;
    private final long connectTimeoutMillis;
    private final MetricGroup metrics;
    private final Map<ChannelId, OutboundSubpartition> outbound = new ConcurrentHashMap<>();
    private final Map<String, ClientConnection> connections = new ConcurrentHashMap<>();
    private volatile boolean closed;

    public NettyShuffleEnvironment(Configuration configuration) {
        String id = configuration.get(TaskManagerOptions.TASK_MANAGER_RESOURCE_ID);
        this.taskManagerId = id == null || id.isBlank() ? "tm-" + UUID.randomUUID().toString().substring(0, 8) : id;
        this.authenticator = new Authenticator(configuration.get(SecurityOptions.CLUSTER_SECRET));
        this.tls = TlsContexts.fromConfiguration(configuration);
        this.local = new LocalShuffleEnvironment(configuration);
        long segmentSize = configuration.get(TaskManagerOptions.MEMORY_SEGMENT_SIZE);
        if (segmentSize < 256 || segmentSize > (1 << 24)) {
            throw new IllegalArgumentException(TaskManagerOptions.MEMORY_SEGMENT_SIZE.key()
                    + " must be between 256 bytes and 16 MiB, was " + segmentSize);
        }
        this.bufferPool = new NetworkBufferPool(positive(configuration, NettyShuffleEnvironmentOptions.NETWORK_NUM_BUFFERS),
                (int) segmentSize);
        this.exclusiveBuffers = positive(configuration, NettyShuffleEnvironmentOptions.NETWORK_BUFFERS_PER_CHANNEL);
        this.floatingBuffers = Math.max(0, configuration.get(NettyShuffleEnvironmentOptions.NETWORK_EXTRA_BUFFERS_PER_GATE));
        this.maxBuffersPerChannel = positive(configuration, NettyShuffleEnvironmentOptions.NETWORK_MAX_BUFFERS_PER_CHANNEL);
        this.batchSize = configuration.get(LocalShuffleEnvironment.BATCH_SIZE);
        this.connectTimeoutMillis = 1000L * positive(configuration, NettyShuffleEnvironmentOptions.CLIENT_CONNECT_TIMEOUT_SECONDS);
        this.metrics = new SimpleMetricGroup("shuffle").addGroup(taskManagerId);
        metrics.gauge("availableNetworkBuffers", bufferPool::availableBuffers);
        metrics.gauge("totalNetworkBuffers", bufferPool::totalBuffers);
        this.eventLoop = new MultiThreadIoEventLoopGroup(positive(configuration, NettyShuffleEnvironmentOptions.NUM_THREADS_SERVER),
                new DefaultThreadFactory("runnel-netty-" + taskManagerId, true),
                Epoll.isAvailable() ? EpollIoHandler.newFactory() : NioIoHandler.newFactory());
        String host = configuration.get(NettyShuffleEnvironmentOptions.DATA_BIND_HOST);
        int port = configuration.get(NettyShuffleEnvironmentOptions.DATA_PORT);
        try {
            this.server = bindServer(host, port);
        } catch (RuntimeException e) {
            eventLoop.shutdownGracefully(0, 1, TimeUnit.SECONDS);
            throw new IllegalStateException("The data server of TaskManager " + taskManagerId + " cannot listen on "
                    + host + ":" + port + " (" + NettyShuffleEnvironmentOptions.DATA_BIND_HOST.key() + ", "
                    + NettyShuffleEnvironmentOptions.DATA_PORT.key() + "): " + describe(e), e);
        }
        this.dataAddress = (InetSocketAddress) server.localAddress();
        LOG.info("TaskManager {} data server listens on {} ({} network buffers of {} bytes)", taskManagerId,
                dataAddress, bufferPool.totalBuffers(), bufferPool.segmentSize());
    }

    private Channel bindServer(String host, int port) {
        int maxFrame = Protocol.maxFrameLength(bufferPool.segmentSize());
        ServerBootstrap bootstrap = Transports.server(eventLoop, tls, maxFrame, "Data server " + taskManagerId,
                () -> HandshakeHandler.server(authenticator, taskManagerId, connectTimeoutMillis,
                        peer -> new ServerConnectionHandler(NettyShuffleEnvironment.this, peer)));
        return bootstrap.bind(host, port).syncUninterruptibly().channel();
    }

    @Override
    public String taskManagerId() {
        return taskManagerId;
    }

    @Override
    public InetSocketAddress dataAddress() {
        return dataAddress;
    }

    /** The TaskManager's network buffers, for metrics and tests. */
    public NetworkBufferPool bufferPool() {
        return bufferPool;
    }

    /** Counters per channel ({@code <edge>.<producer>-<consumer>.numBytesOut} ...) and the pool gauges. */
    public MetricGroup metrics() {
        return metrics;
    }

    @Override
    public ResultPartitionWriter createResultPartitionWriter(ResultPartitionDeploymentDescriptor descriptor,
            TaskWaker producerWaker) {
        List<ChannelDescriptor> channels = descriptor.channels();
        // a blocking partition has no channels: it goes to a file, which the local shuffle writes
        long remote = channels.stream().filter(c -> !c.isLocal()).count();
        if (remote == 0) {
            return local.createResultPartitionWriter(descriptor, producerWaker);
        }
        int remoteChannels = (int) remote;
        LocalBufferPool pool = new LocalBufferPool(bufferPool, remoteChannels + 1,
                remoteChannels * maxBuffersPerChannel + 1,
                "result partition " + descriptor.edgeId() + " of subtask " + descriptor.producerSubtask());
        SubpartitionWriter[] ends = new SubpartitionWriter[channels.size()];
        for (int i = 0; i < ends.length; i++) {
            ChannelDescriptor channel = channels.get(i);
            requireHere(channel.producer(), channel);
            ends[i] = channel.isLocal()
                    ? local.openSubpartition(channel.id(), descriptor.serializer(), producerWaker)
                    : new RemoteSubpartitionWriter(outbound(channel.id()), pool, descriptor.serializer(),
                            maxBuffersPerChannel, producerWaker, ChannelMetrics.sending(metrics, channel.id()));
        }
        metrics.addGroup(descriptor.edgeId()).addGroup("out-" + descriptor.producerSubtask()).gauge("outputQueueLength",
                () -> {
                    int queued = 0;
                    for (SubpartitionWriter end : ends) {
                        queued += end instanceof RemoteSubpartitionWriter sending ? sending.queuedBuffers() : 0;
                    }
                    return queued;
                });
        return new ChannelResultPartitionWriter(ends, pool::destroy);
    }

    @Override
    public InputGate createInputGate(InputGateDeploymentDescriptor descriptor, TaskWaker consumerWaker) {
        if (descriptor.isBlocking()) {
            // Finished partitions are read from their files; the scheduler uses blocking exchanges only where
            // every TaskManager of the job shares this machine's disk (the embedded runtime).
            return local.createInputGate(descriptor, consumerWaker);
        }
        List<ChannelDescriptor> channels = descriptor.channels();
        long remote = channels.stream().filter(c -> !c.isLocal()).count();
        if (remote == 0) {
            return local.createInputGate(descriptor, consumerWaker);
        }
        int remoteChannels = (int) remote;
        ChannelId first = channels.get(0).id();
        FloatingBuffers gatePool = new FloatingBuffers(new LocalBufferPool(bufferPool,
                remoteChannels * exclusiveBuffers, remoteChannels * exclusiveBuffers + floatingBuffers,
                "input gate " + descriptor.inputIndex() + " of subtask " + first.consumerSubtask()));
        AtomicInteger open = new AtomicInteger(remoteChannels);
        Runnable onChannelReleased = () -> {
            if (open.decrementAndGet() == 0) {
                gatePool.destroy();
            }
        };
        int maxRecordBytes = Integer.MAX_VALUE - 16;
        InputChannelReader[] ends = new InputChannelReader[channels.size()];
        int opened = 0;
        try {
            // Every remote channel takes its exclusive buffers before any asks for data: once data flows, the
            // gate lends its spare buffers as floating ones.
            for (int i = 0; i < ends.length; i++) {
                ChannelDescriptor channel = channels.get(i);
                requireHere(channel.consumer(), channel);
                if (channel.isLocal()) {
                    ends[i] = local.openInputChannel(channel.id(), consumerWaker);
                } else {
                    ClientConnection connection = connection(channel.producer());
                    ends[i] = new RemoteInputChannel(channel, connection, gatePool, exclusiveBuffers,
                            descriptor.serializer(), batchSize, maxRecordBytes,
                            ChannelMetrics.receiving(metrics, channel.id()), onChannelReleased);
                    opened++;
                }
            }
            for (InputChannelReader end : ends) {
                if (end instanceof RemoteInputChannel input) {
                    input.requestPartition(consumerWaker);
                }
            }
        } catch (RuntimeException e) {
            // Give back what the gate took: the channels opened so far, and the reserve of those never opened.
            for (InputChannelReader end : ends) {
                if (end != null) {
                    end.release();
                }
            }
            for (int i = opened; i < remoteChannels; i++) {
                onChannelReleased.run();
            }
            throw e;
        }
        metrics.addGroup(first.edgeId()).addGroup("in-" + first.consumerSubtask() + "-" + descriptor.inputIndex())
                .gauge("inputQueueLength", () -> {
                    int queued = 0;
                    for (InputChannelReader end : ends) {
                        queued += end instanceof RemoteInputChannel receiving ? receiving.queuedBuffers() : 0;
                    }
                    return queued;
                });
        return new ChannelInputGate(ends);
    }

    /** The queue of channel {@code id} on this (the producing) TaskManager, made by whichever end comes first. */
    OutboundSubpartition outbound(ChannelId id) {
        return outbound.computeIfAbsent(id, OutboundSubpartition::new);
    }

    /** The channel is done (delivered, cancelled or failed); a later request for its id starts afresh. */
    void forget(OutboundSubpartition subpartition) {
        outbound.remove(subpartition.id, subpartition);
    }

    /** The authenticated connection to {@code producer}'s TaskManager, opened on first use. */
    private ClientConnection connection(TaskLocation producer) {
        ClientConnection existing = connections.get(producer.taskManagerId());
        if (existing != null && existing.isUsable()) {
            return existing;
        }
        synchronized (connections) {
            existing = connections.get(producer.taskManagerId());
            if (existing != null && existing.isUsable()) {
                return existing;
            }
            ClientConnection created = connect(producer);
            connections.put(producer.taskManagerId(), created);
            return created;
        }
    }

    private ClientConnection connect(TaskLocation producer) {
        if (closed) {
            throw new IllegalStateException("the shuffle of TaskManager " + taskManagerId + " is closed");
        }
        InetSocketAddress address = producer.dataAddress();
        if (address == null) {
            throw new IllegalArgumentException("TaskManager " + producer.taskManagerId()
                    + " has no data address; it cannot be reached over the network");
        }
        ClientConnection connection = new ClientConnection(producer.taskManagerId(),
                () -> connections.remove(producer.taskManagerId()));
        Promise<String> authenticated = eventLoop.next().newPromise();
        int maxFrame = Protocol.maxFrameLength(bufferPool.segmentSize());
        Bootstrap bootstrap = Transports.client(eventLoop, tls, address, maxFrame, "Data client " + taskManagerId,
                connectTimeoutMillis, () -> HandshakeHandler.client(authenticator, taskManagerId, connectTimeoutMillis,
                        peer -> connection.handler(), authenticated));
        ChannelFuture connected = bootstrap.connect(address);
        String where = "TaskManager " + producer.taskManagerId() + " at " + address;
        if (!connected.awaitUninterruptibly(connectTimeoutMillis + 1000) || !connected.isSuccess()) {
            connected.channel().close();
            throw new ChannelFailedException("Cannot connect to the data server of " + where + ": "
                    + (connected.cause() == null ? "timed out" : describe(connected.cause())));
        }
        if (!authenticated.awaitUninterruptibly(connectTimeoutMillis + 1000) || !authenticated.isSuccess()) {
            connected.channel().close();
            throw new ChannelFailedException("The handshake with " + where + " failed: "
                    + (authenticated.cause() == null ? "timed out" : authenticated.cause().getMessage()));
        }
        if (!authenticated.getNow().equals(producer.taskManagerId())) {
            connected.channel().close();
            throw new ChannelFailedException(address + " answered as TaskManager '" + authenticated.getNow()
                    + "', not '" + producer.taskManagerId() + "'");
        }
        connection.connected(connected.channel());
        return connection;
    }

    private void requireHere(TaskLocation end, ChannelDescriptor channel) {
        if (!end.taskManagerId().equals(taskManagerId)) {
            throw new IllegalArgumentException("channel " + channel.id() + " has its end on TaskManager "
                    + end.taskManagerId() + ", but this is TaskManager " + taskManagerId);
        }
    }

    @Override
    public void close() {
        if (closed) {
            return;
        }
        closed = true;
        connections.values().forEach(ClientConnection::close);
        connections.clear();
        server.close().syncUninterruptibly();
        eventLoop.shutdownGracefully(0, 2, TimeUnit.SECONDS).syncUninterruptibly();
        outbound.values().forEach(OutboundSubpartition::release);
        local.close();
    }

    /** One line for a log: the exception's type and message, no stack. */
    static String describe(Throwable t) {
        Throwable root = t;
        while (root.getCause() != null && root.getCause() != root && root.getMessage() == null) {
            root = root.getCause();
        }
        String message = root.getMessage();
        return root.getClass().getSimpleName() + (message == null ? "" : ": " + message);
    }

    private static int positive(Configuration configuration, ConfigOption<Integer> option) {
        int value = configuration.get(option);
        if (value < 1) {
            throw new IllegalArgumentException(option.key() + " must be >= 1, was " + value);
        }
        return value;
    }
}
