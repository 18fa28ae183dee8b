package dev.runnel.runtime.timers;

/**
 * Sets and reads the key that keyed state and timers currently act on. Before firing a timer, the
 * timer service sets the timer's key here. Task thread only.
 */
public interface KeyContext {

    void setCurrentKey(Object key);

    Object getCurrentKey();
}
