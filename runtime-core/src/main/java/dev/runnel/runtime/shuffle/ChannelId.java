package dev.runnel.runtime.shuffle;

import java.util.Objects;

/**
 * One channel of a job edge: the records producer subtask {@code producerSubtask} sends to consumer
 * subtask {@code consumerSubtask} over edge {@code edgeId}. Unique within a running job.
 */
public record ChannelId(String edgeId, int producerSubtask, int consumerSubtask) {

    // equals and hashCode are written out: a record's generated ones are bootstrapped through method handles
    // on first use, which spun some 50 classes while every job started (its channels are looked up by id).
    @Override
    public boolean equals(Object other) {
        return other instanceof ChannelId that && producerSubtask == that.producerSubtask
                && consumerSubtask == that.consumerSubtask && Objects.equals(edgeId, that.edgeId);
    }

    @Override
    public int hashCode() {
        return (Objects.hashCode(edgeId) * 31 + producerSubtask) * 31 + consumerSubtask;
    }

    @Override
    public String toString() {
        return edgeId + "[" + producerSubtask + "->" + consumerSubtask + "]";
    }
}
