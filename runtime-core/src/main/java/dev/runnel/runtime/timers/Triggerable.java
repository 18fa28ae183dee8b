package dev.runnel.runtime.timers;

/**
 * Receives fired timers: the operator that registered them. The key of the timer is already set
 * as current key when these run. Task thread only.
 */
public interface Triggerable<K, N> {

    void onEventTime(InternalTimer<K, N> timer) throws Exception;

    void onProcessingTime(InternalTimer<K, N> timer) throws Exception;
}
