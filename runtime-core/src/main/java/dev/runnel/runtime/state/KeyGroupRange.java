package dev.runnel.runtime.state;

import dev.runnel.util.Preconditions;
import java.util.Iterator;
import java.util.NoSuchElementException;

/**
 * A contiguous, inclusive range of key groups {@code [startKeyGroup, endKeyGroup]}: the unit of keyed
 * state a subtask owns, snapshots and hands over on rescale.
 *
 * <p>Immutable and thread-safe. The empty range is {@link #EMPTY_KEY_GROUP_RANGE}; any range built
 * with {@code end < start} equals it.
 */
public final class KeyGroupRange implements Iterable<Integer>, java.io.Serializable {

    private static final long serialVersionUID = 1L;

    /** The range with no key groups. */
    public static final KeyGroupRange EMPTY_KEY_GROUP_RANGE = new KeyGroupRange();

    private final int startKeyGroup;
    private final int endKeyGroup;

    private KeyGroupRange() {
        this.startKeyGroup = 0;
        this.endKeyGroup = -1;
    }

    private KeyGroupRange(int startKeyGroup, int endKeyGroup) {
        Preconditions.checkArgument(startKeyGroup >= 0, "startKeyGroup must be >= 0, was %s", startKeyGroup);
        Preconditions.checkArgument(endKeyGroup >= 0, "endKeyGroup must be >= 0, was %s", endKeyGroup);
        this.startKeyGroup = startKeyGroup;
        this.endKeyGroup = endKeyGroup;
    }

    /** The range {@code [start, end]}, or the empty range when {@code end < start}. */
    public static KeyGroupRange of(int startKeyGroup, int endKeyGroup) {
        return startKeyGroup <= endKeyGroup
                ? new KeyGroupRange(startKeyGroup, endKeyGroup)
                : EMPTY_KEY_GROUP_RANGE;
    }

    public int getStartKeyGroup() {
        return startKeyGroup;
    }

    public int getEndKeyGroup() {
        return endKeyGroup;
    }

    public int getNumberOfKeyGroups() {
        return 1 + endKeyGroup - startKeyGroup;
    }

    public boolean contains(int keyGroup) {
        return keyGroup >= startKeyGroup && keyGroup <= endKeyGroup;
    }

    /** The key groups both ranges hold; empty when they do not overlap. */
    public KeyGroupRange getIntersection(KeyGroupRange other) {
        int start = Math.max(startKeyGroup, other.startKeyGroup);
        int end = Math.min(endKeyGroup, other.endKeyGroup);
        return of(start, end);
    }

    /** The {@code index}-th key group of this range, counting from 0. */
    public int getKeyGroupId(int index) {
        Preconditions.checkArgument(index >= 0 && index < getNumberOfKeyGroups(),
                "key group index %s out of range %s", index, this);
        return startKeyGroup + index;
    }

    @Override
    public Iterator<Integer> iterator() {
        return new Iterator<>() {
            private int next = startKeyGroup;

            @Override
            public boolean hasNext() {
                return next <= endKeyGroup;
            }

            @Override
            public Integer next() {
                if (!hasNext()) {
                    throw new NoSuchElementException();
                }
                return next++;
            }
        };
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyGroupRange other
                && startKeyGroup == other.startKeyGroup
                && endKeyGroup == other.endKeyGroup;
    }

    @Override
    public int hashCode() {
        return 31 * startKeyGroup + endKeyGroup;
    }

    @Override
    public String toString() {
        return "KeyGroupRange{startKeyGroup=" + startKeyGroup + ", endKeyGroup=" + endKeyGroup + '}';
    }
}
