package dev.runnel.runtime.timers;

/**
 * Receives fired timers: the operator that registered them. The key of the timer is already set
 * as current key when these run. Task thread only.
 */
public interface Triggerable<K, N> {

    void onEventTime(InternalTimer<K, N> timer) throws Exception;

    void onProcessingTime(InternalTimer<K, N> timer) throws Exception;

    /**
     * The event-time timer of {@code key} and {@code namespace} at {@code timestamp} fired: what the timer
     * service calls, with the timer's parts as its queue kept them. By default it makes the timer and calls
     * {@link #onEventTime(InternalTimer)}; an operator that reads only the parts overrides this, and then a
     * fired timer allocates nothing.
     */
    default void onEventTime(K key, N namespace, long timestamp) throws Exception {
        onEventTime(new TimerHeapInternalTimer<>(timestamp, key, namespace));
    }
}
