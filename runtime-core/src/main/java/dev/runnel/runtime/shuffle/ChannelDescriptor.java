package dev.runnel.runtime.shuffle;

import java.util.Objects;

/**
 * One channel as deployed: its id and where both of its ends run. The scheduler hands these to each
 * task, so a task never needs the whole job graph to find its peers. Immutable.
 */
public record ChannelDescriptor(ChannelId id, TaskLocation producer, TaskLocation consumer) {

    public ChannelDescriptor {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(producer, "producer");
        Objects.requireNonNull(consumer, "consumer");
    }

    /** Whether both ends share a TaskManager. */
    public boolean isLocal() {
        return producer.isSameTaskManager(consumer);
    }
}
