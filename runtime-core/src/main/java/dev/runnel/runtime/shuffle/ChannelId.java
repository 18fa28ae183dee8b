package dev.runnel.runtime.shuffle;

/**
 * One channel of a job edge: the records producer subtask {@code producerSubtask} sends to consumer
 * subtask {@code consumerSubtask} over edge {@code edgeId}. Unique within a running job.
 */
public record ChannelId(String edgeId, int producerSubtask, int consumerSubtask) {

    @Override
    public String toString() {
        return edgeId + "[" + producerSubtask + "->" + consumerSubtask + "]";
    }
}
