package dev.runnel.runtime.timers;

/**
 * A registered timer: a timestamp for a key and a namespace (for example a window). Immutable.
 *
 * @param <K> the key type
 * @param <N> the namespace type
 */
public interface InternalTimer<K, N> {

    long getTimestamp();

    K getKey();

    N getNamespace();
}
