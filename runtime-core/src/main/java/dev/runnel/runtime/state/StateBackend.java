package dev.runnel.runtime.state;

import java.io.Serializable;

/**
 * Where a job keeps its keyed state: chosen per job with {@code env.setStateBackend(...)} or by
 * configuration ({@code state.backend: heap | rocksdb}). A serializable factory; it creates one
 * {@link KeyedStateBackend} per keyed operator and subtask.
 */
public interface StateBackend extends Serializable {

    /** The configuration name of this store ({@code heap}, {@code rocksdb}). */
    String getName();

    <K> KeyedStateBackend<K> createKeyedStateBackend(KeyedStateBackendParameters<K> parameters) throws Exception;
}
