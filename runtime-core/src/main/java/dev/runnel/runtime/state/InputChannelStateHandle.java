package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.Serializable;
import java.util.Objects;

/**
 * The in-flight records of one input channel of one subtask at an unaligned checkpoint: what the barrier
 * overtook in that channel, plus what the channel delivered after the task's snapshot up to the in-order
 * position of its barrier. On restore they are processed before any new input (Flink's input channel state).
 *
 * <p>The channel is named by what survives a change of parallelism: the gate it belongs to, the edge and
 * the producer subtask (the consumer subtask is the one whose state holds the handle), so the handle can be
 * reassigned by the edge's {@code SubtaskStateMapper}s.
 *
 * <p>The blob holds {@link #records()} records, each {@code [long timestamp][value]}, the value written with
 * the edge's serializer (the one of the gate's deployment descriptor). Immutable.
 *
 * @param gateIndex 0-based input of the head operator (0, or 1 for the second input of a {@code connect})
 * @param edgeId the job edge the channel belongs to
 * @param producerSubtask the upstream subtask at the channel's other end
 * @param records how many records the blob holds (more than zero)
 * @param delegate the blob
 */
public record InputChannelStateHandle(int gateIndex, String edgeId, int producerSubtask, long records,
        StreamStateHandle delegate) implements Serializable {

    public InputChannelStateHandle {
        Objects.requireNonNull(edgeId, "edgeId");
        Objects.requireNonNull(delegate, "delegate");
        if (gateIndex < 0 || producerSubtask < 0 || records < 0) {
            throw new IllegalArgumentException("invalid input channel state: gate " + gateIndex + ", producer "
                    + producerSubtask + ", " + records + " records");
        }
    }

    public long getStateSize() {
        return delegate.getStateSize();
    }

    public void discardState() throws IOException {
        delegate.discardState();
    }

    @Override
    public String toString() {
        return "input channel state of gate " + gateIndex + " " + edgeId + "[" + producerSubtask + "->]: " + records
                + " records in " + delegate.describe();
    }
}
