package dev.runnel.api.common.state;

import java.util.Set;

/**
 * The non-keyed state of one operator subtask, snapshotted with every checkpoint: list states (split
 * round-robin among subtasks on rescale), union list states (every subtask gets all elements on restore)
 * and broadcast states (the same map in every subtask). States are created once per name and reused. Task
 * thread only.
 */
public interface OperatorStateStore {

    <K, V> BroadcastState<K, V> getBroadcastState(MapStateDescriptor<K, V> stateDescriptor) throws Exception;

    <S> ListState<S> getListState(ListStateDescriptor<S> stateDescriptor) throws Exception;

    <S> ListState<S> getUnionListState(ListStateDescriptor<S> stateDescriptor) throws Exception;

    Set<String> getRegisteredStateNames();

    Set<String> getRegisteredBroadcastStateNames();
}
