package dev.runnel.runtime.state.ttl;

import java.util.Objects;

/**
 * A user value stored with the time it was last written (or read, with
 * {@link dev.runnel.api.common.state.StateTtlConfig.UpdateType#OnReadAndWrite}): what state with a
 * time-to-live keeps in the store instead of the bare value.
 *
 * <p>Immutable: refreshing the timestamp creates a new instance, so a store may hold it by reference.
 * The user value may be null (map state values may be).
 *
 * @param <T> the user value type
 */
public final class TtlValue<T> {

    private final T userValue;
    private final long lastAccessTimestamp;

    public TtlValue(T userValue, long lastAccessTimestamp) {
        this.userValue = userValue;
        this.lastAccessTimestamp = lastAccessTimestamp;
    }

    public T getUserValue() {
        return userValue;
    }

    public long getLastAccessTimestamp() {
        return lastAccessTimestamp;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof TtlValue<?> other
                && lastAccessTimestamp == other.lastAccessTimestamp
                && Objects.equals(userValue, other.userValue);
    }

    @Override
    public int hashCode() {
        return 31 * Objects.hashCode(userValue) + Long.hashCode(lastAccessTimestamp);
    }

    @Override
    public String toString() {
        return "TtlValue{" + userValue + " @" + lastAccessTimestamp + '}';
    }
}
