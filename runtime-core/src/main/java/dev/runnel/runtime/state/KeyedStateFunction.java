package dev.runnel.runtime.state;

import dev.runnel.api.common.state.State;

/**
 * What to do with the state of one key, when a broadcast function visits every key
 * ({@code KeyedBroadcastProcessFunction.Context#applyToKeyedState}). Called on the task thread with
 * {@code key} current, so {@code state} acts on that key's entry.
 *
 * @param <K> the key type
 * @param <S> the state type
 */
@FunctionalInterface
public interface KeyedStateFunction<K, S extends State> {

    /** Reads or changes {@code state}, which is the state of {@code key}. */
    void process(K key, S state) throws Exception;
}
