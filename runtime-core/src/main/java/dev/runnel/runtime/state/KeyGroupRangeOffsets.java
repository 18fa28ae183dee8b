package dev.runnel.runtime.state;

import java.io.Serializable;
import java.util.Arrays;

/**
 * Where each key group of a range starts in a snapshot stream, so a restore can seek straight to the
 * key groups it owns. Mutable while the snapshot is written, then treated as immutable.
 */
public final class KeyGroupRangeOffsets implements Serializable {

    private static final long serialVersionUID = 1L;

    private final KeyGroupRange keyGroupRange;
    private final long[] offsets;

    public KeyGroupRangeOffsets(KeyGroupRange keyGroupRange) {
        this(keyGroupRange, new long[keyGroupRange.getNumberOfKeyGroups()]);
    }

    public KeyGroupRangeOffsets(KeyGroupRange keyGroupRange, long[] offsets) {
        if (offsets.length != keyGroupRange.getNumberOfKeyGroups()) {
            throw new IllegalArgumentException("need one offset per key group of " + keyGroupRange
                    + ", got " + offsets.length);
        }
        this.keyGroupRange = keyGroupRange;
        this.offsets = offsets.clone();
    }

    public KeyGroupRange getKeyGroupRange() {
        return keyGroupRange;
    }

    public long getKeyGroupOffset(int keyGroup) {
        return offsets[index(keyGroup)];
    }

    public void setKeyGroupOffset(int keyGroup, long offset) {
        offsets[index(keyGroup)] = offset;
    }

    /** The offsets of the key groups also in {@code range}. */
    public KeyGroupRangeOffsets intersect(KeyGroupRange range) {
        KeyGroupRange common = keyGroupRange.getIntersection(range);
        long[] sub = new long[common.getNumberOfKeyGroups()];
        for (int i = 0; i < sub.length; i++) {
            sub[i] = getKeyGroupOffset(common.getKeyGroupId(i));
        }
        return new KeyGroupRangeOffsets(common, sub);
    }

    private int index(int keyGroup) {
        if (!keyGroupRange.contains(keyGroup)) {
            throw new IllegalArgumentException("key group " + keyGroup + " is not in " + keyGroupRange);
        }
        return keyGroup - keyGroupRange.getStartKeyGroup();
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof KeyGroupRangeOffsets other
                && keyGroupRange.equals(other.keyGroupRange)
                && Arrays.equals(offsets, other.offsets);
    }

    @Override
    public int hashCode() {
        return 31 * keyGroupRange.hashCode() + Arrays.hashCode(offsets);
    }

    @Override
    public String toString() {
        return "KeyGroupRangeOffsets{" + keyGroupRange + ", offsets=" + Arrays.toString(offsets) + '}';
    }
}
