package dev.runnel.runtime.state;

import java.util.Map;
import java.util.Objects;

/** The {@link OperatorStateHandle} every operator state backend writes: a blob and its states' offsets. */
public final class OperatorStreamStateHandle implements OperatorStateHandle {

    private static final long serialVersionUID = 1L;

    private final Map<String, StateMetaInfo> stateNameToPartitionOffsets;
    private final StreamStateHandle delegate;

    public OperatorStreamStateHandle(Map<String, StateMetaInfo> stateNameToPartitionOffsets,
            StreamStateHandle delegate) {
        this.stateNameToPartitionOffsets = Map.copyOf(stateNameToPartitionOffsets);
        this.delegate = Objects.requireNonNull(delegate, "delegate");
    }

    @Override
    public Map<String, StateMetaInfo> getStateNameToPartitionOffsets() {
        return stateNameToPartitionOffsets;
    }

    @Override
    public StreamStateHandle getDelegateStateHandle() {
        return delegate;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OperatorStreamStateHandle other
                && stateNameToPartitionOffsets.equals(other.stateNameToPartitionOffsets)
                && delegate.equals(other.delegate);
    }

    @Override
    public int hashCode() {
        return 31 * stateNameToPartitionOffsets.hashCode() + delegate.hashCode();
    }

    @Override
    public String toString() {
        return "OperatorStreamStateHandle{" + delegate.describe() + ", states " + stateNameToPartitionOffsets.keySet()
                + '}';
    }
}
