package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.AppendingState;

/**
 * Internal form of appending state, with access to the stored value itself ({@code SV}: the list,
 * the reduced value, or the accumulator) for operators such as windows.
 */
public interface InternalAppendingState<K, N, IN, SV, OUT> extends InternalKvState<K, N, SV>, AppendingState<IN, OUT> {

    /** The stored value of the current key and namespace, or null. */
    SV getInternal() throws Exception;

    /** Replaces the stored value of the current key and namespace ({@code null} clears it). */
    void updateInternal(SV valueToStore) throws Exception;
}
