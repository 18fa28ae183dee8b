package dev.runnel.runtime.state;

import java.io.IOException;
import java.io.Serializable;
import java.nio.channels.SeekableByteChannel;
import java.util.Map;

/**
 * The operator (non-keyed) state of one subtask at a checkpoint: one blob with the serialized elements of
 * each list, union and broadcast state, and for each state where each of its elements starts, so that a
 * rescale can hand single elements to other subtasks. Immutable.
 */
public interface OperatorStateHandle extends Serializable {

    /** How a state's elements are redistributed when the parallelism changes. */
    enum Mode {
        /** List state: the elements are split round-robin among the new subtasks. */
        SPLIT_DISTRIBUTE,
        /** Union list state: every new subtask gets all elements of all old subtasks. */
        UNION,
        /** Broadcast state: every subtask had the same map; each new subtask gets one copy. */
        BROADCAST
    }

    /** Where the elements of one state start in the blob, and how they are distributed. */
    record StateMetaInfo(long[] offsets, Mode distributionMode) implements Serializable {

        public StateMetaInfo {
            java.util.Objects.requireNonNull(offsets, "offsets");
            java.util.Objects.requireNonNull(distributionMode, "distributionMode");
        }

        // A record compares arrays by identity; two infos with the same offsets are the same value.
        @Override
        public boolean equals(Object o) {
            return o instanceof StateMetaInfo other && distributionMode == other.distributionMode
                    && java.util.Arrays.equals(offsets, other.offsets);
        }

        @Override
        public int hashCode() {
            return 31 * distributionMode.hashCode() + java.util.Arrays.hashCode(offsets);
        }

        @Override
        public String toString() {
            return distributionMode + java.util.Arrays.toString(offsets);
        }
    }

    /** Each state's name with the offsets of its elements. */
    Map<String, StateMetaInfo> getStateNameToPartitionOffsets();

    /** The blob. */
    StreamStateHandle getDelegateStateHandle();

    default SeekableByteChannel openChannel() throws IOException {
        return getDelegateStateHandle().openChannel();
    }

    default long getStateSize() {
        return getDelegateStateHandle().getStateSize();
    }

    default void discardState() throws IOException {
        getDelegateStateHandle().discardState();
    }
}
