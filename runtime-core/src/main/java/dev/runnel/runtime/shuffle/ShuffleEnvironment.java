package dev.runnel.runtime.shuffle;

import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;

/**
 * Moves records between subtasks: in memory within one JVM, over the network between TaskManagers.
 * The engine knows only this interface; implementations come from a {@link ShuffleServiceFactory}.
 * Each end is created from the deployment descriptor the scheduler gave the task: it names every
 * channel, the locations of both ends and the records' serializer, so an implementation decides per
 * channel whether it stays in memory or crosses a socket.
 *
 * <p>Both ends of a channel name it by the same {@link ChannelId}, so producer and consumer can be
 * created in any order. Thread-safe: tasks create their ends concurrently at deployment.
 */
public interface ShuffleEnvironment extends AutoCloseable {

    /** The TaskManager this environment serves; ends on it whose peer has another id are remote. */
    String taskManagerId();

    /** Where other TaskManagers reach this one's data server; null when the shuffle never leaves the JVM. */
    java.net.InetSocketAddress dataAddress();

    /** Where an attempt of a subtask deployed on this TaskManager runs. */
    default TaskLocation location(int attemptNumber) {
        return new TaskLocation(taskManagerId(), dataAddress(), attemptNumber);
    }

    /**
     * The sending end described by {@code descriptor}: one subpartition per channel, in its order.
     *
     * @param producerWaker wakes the producer's thread when a full channel has room again
     */
    ResultPartitionWriter createResultPartitionWriter(ResultPartitionDeploymentDescriptor descriptor,
            TaskWaker producerWaker);

    /**
     * The receiving end described by {@code descriptor}; channel indexes of the gate follow its order.
     *
     * @param consumerWaker wakes the consumer's thread when data arrives
     */
    InputGate createInputGate(InputGateDeploymentDescriptor descriptor, TaskWaker consumerWaker);

    @Override
    void close();
}
