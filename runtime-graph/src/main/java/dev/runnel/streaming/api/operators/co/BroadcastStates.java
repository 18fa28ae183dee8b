package dev.runnel.streaming.api.operators.co;

import dev.runnel.api.common.state.MapStateDescriptor;
import dev.runnel.runtime.state.DefaultOperatorStateBackend;
import dev.runnel.runtime.state.HeapBroadcastState;
import java.io.Serializable;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The broadcast states of one subtask of a broadcast operator, one per descriptor given to
 * {@code broadcast(...)}, found by the descriptor's name. Operator state: not keyed, not checkpointed yet.
 * The list of descriptors is part of the serializable operator; the maps are created per subtask. Task
 * thread only.
 */
final class BroadcastStates implements Serializable {

    private static final long serialVersionUID = 1L;

    private final List<MapStateDescriptor<?, ?>> descriptors;
    private transient Map<String, HeapBroadcastState<?, ?>> states;

    BroadcastStates(List<MapStateDescriptor<?, ?>> descriptors) {
        this.descriptors = List.copyOf(descriptors);
    }

    /** Registers (and restores) this subtask's maps in its operator state, where checkpoints find them. */
    void open(DefaultOperatorStateBackend operatorState) throws Exception {
        states = new HashMap<>();
        for (MapStateDescriptor<?, ?> descriptor : descriptors) {
            states.put(descriptor.getName(), operatorState.getHeapBroadcastState(descriptor));
        }
    }

    @SuppressWarnings("unchecked")
    <K, V> HeapBroadcastState<K, V> get(MapStateDescriptor<K, V> descriptor) {
        HeapBroadcastState<?, ?> state = states.get(descriptor.getName());
        if (state == null) {
            throw new IllegalArgumentException("There is no broadcast state '" + descriptor.getName() + "'. This"
                    + " operator has " + names() + "; pass every descriptor you use to broadcast(...).");
        }
        return (HeapBroadcastState<K, V>) state;
    }

    private String names() {
        return descriptors.isEmpty() ? "none" : descriptors.stream().map(d -> "'" + d.getName() + "'")
                .collect(Collectors.joining(", "));
    }
}
