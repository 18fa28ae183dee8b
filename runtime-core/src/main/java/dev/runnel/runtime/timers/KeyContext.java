package dev.runnel.runtime.timers;

/**
 * Sets and reads the key that keyed state and timers currently act on. Before firing a timer, the
 * timer service sets the timer's key here. Task thread only.
 */
public interface KeyContext {

    void setCurrentKey(Object key);

    Object getCurrentKey();

    /**
     * The current key as an object to keep in a new timer: equal to {@link #getCurrentKey()}, possibly
     * an instance the keyed state already holds (see {@code KeyedStateBackend.retainedCurrentKey}).
     * The default returns the current key itself.
     */
    default Object retainedCurrentKey() {
        return getCurrentKey();
    }
}
