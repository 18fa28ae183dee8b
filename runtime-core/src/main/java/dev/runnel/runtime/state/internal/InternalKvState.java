package dev.runnel.runtime.state.internal;

import dev.runnel.api.common.state.State;
import dev.runnel.api.common.typeutils.TypeSerializer;

/**
 * The runtime's view of a keyed state: the user interface plus the namespace it currently acts on.
 * The current key comes from the backend that created the state. Task thread only.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 * @param <V> the stored value type
 */
public interface InternalKvState<K, N, V> extends State {

    /** Sets the namespace (e.g. the window) that the next calls act on. */
    void setCurrentNamespace(N namespace);

    TypeSerializer<K> getKeySerializer();

    TypeSerializer<N> getNamespaceSerializer();

    TypeSerializer<V> getValueSerializer();
}
