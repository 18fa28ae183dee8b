package dev.runnel.runtime.timers;

/**
 * Sets and reads the key that keyed state and timers currently act on. Before firing a timer, the
 * timer service sets the timer's key here. Task thread only.
 */
public interface KeyContext {

    void setCurrentKey(Object key);

    /**
     * Sets {@code key}, whose key group the caller knows ({@code keyGroup}, its key group under this
     * context's max parallelism, as a timer queue knows it for its elements), so that it is not hashed again.
     * A negative {@code keyGroup} means unknown. The default ignores it.
     */
    default void setCurrentKey(Object key, int keyGroup) {
        setCurrentKey(key);
    }

    Object getCurrentKey();

    /**
     * The key group of the current key, as the keyed state computed it when the key was set; negative when
     * this context does not know it (or no key is set). The default does not know it.
     */
    default int currentKeyGroup() {
        return -1;
    }

    /**
     * The current key as an object to keep in a new timer: equal to {@link #getCurrentKey()}, possibly
     * an instance the keyed state already holds (see {@code KeyedStateBackend.retainedCurrentKey}).
     * The default returns the current key itself.
     */
    default Object retainedCurrentKey() {
        return getCurrentKey();
    }
}
