package dev.runnel.runtime.shuffle;

import dev.runnel.runtime.io.InputGate;
import dev.runnel.runtime.io.ResultPartitionWriter;
import dev.runnel.runtime.io.TaskWaker;
import java.util.List;

/**
 * Moves records between subtasks: in memory within one JVM, over the network between TaskManagers.
 * The engine knows only this interface; implementations come from a {@link ShuffleServiceFactory}.
 *
 * <p>Both ends of a channel name it by the same {@link ChannelId}, so producer and consumer can be
 * created in any order. Thread-safe: tasks create their ends concurrently at deployment.
 */
public interface ShuffleEnvironment extends AutoCloseable {

    /**
     * The sending end for producer subtask {@code producerSubtask} of edge {@code edgeId}: one
     * subpartition per entry of {@code consumerSubtasks}, in that order.
     *
     * @param producerWaker wakes the producer's thread when a full channel has room again
     */
    ResultPartitionWriter createResultPartitionWriter(
            String edgeId, int producerSubtask, int[] consumerSubtasks, TaskWaker producerWaker);

    /**
     * The receiving end over {@code channels} (all ending at the same consumer subtask); channel
     * indexes of the gate follow the list order.
     *
     * @param consumerWaker wakes the consumer's thread when data arrives
     */
    InputGate createInputGate(List<ChannelId> channels, TaskWaker consumerWaker);

    @Override
    void close();
}
