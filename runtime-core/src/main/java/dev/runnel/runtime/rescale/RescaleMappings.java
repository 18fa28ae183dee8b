package dev.runnel.runtime.rescale;

import java.util.Arrays;
import java.util.BitSet;

/**
 * A complete rescale mapping between two parallelisms: for each source index (a new subtask) the
 * target indexes (old subtasks) it reads, plus the inverse view. Restore uses it to decide whose
 * snapshots each new subtask opens.
 *
 * <p>Immutable and thread-safe. Arrays returned by accessors are copies.
 */
public final class RescaleMappings {

    private final int[][] mappings;
    private final int numberOfTargets;

    private RescaleMappings(int[][] mappings, int numberOfTargets) {
        this.mappings = mappings;
        this.numberOfTargets = numberOfTargets;
    }

    /** A mapping where source {@code i} maps to {@code mappings[i]}; targets are {@code [0, numberOfTargets)}. */
    public static RescaleMappings of(int[][] mappings, int numberOfTargets) {
        int[][] copy = new int[mappings.length][];
        for (int i = 0; i < mappings.length; i++) {
            copy[i] = mappings[i].clone();
            for (int target : copy[i]) {
                if (target < 0 || target >= numberOfTargets) {
                    throw new IllegalArgumentException("source " + i + " maps to target " + target
                            + ", outside [0, " + numberOfTargets + ")");
                }
            }
        }
        return new RescaleMappings(copy, numberOfTargets);
    }

    /** The number of sources (new subtasks). */
    public int getNumberOfSources() {
        return mappings.length;
    }

    /** The number of targets (old subtasks). */
    public int getNumberOfTargets() {
        return numberOfTargets;
    }

    /** The targets source {@code sourceIndex} maps to; empty when it is beyond the mapping. */
    public int[] getMappedIndexes(int sourceIndex) {
        return sourceIndex < mappings.length ? mappings[sourceIndex].clone() : new int[0];
    }

    /** The inverse: for every target (old subtask), the sources (new subtasks) that read it, ascending. */
    public RescaleMappings invert() {
        int[] counts = new int[numberOfTargets];
        for (int[] targets : mappings) {
            for (int target : targets) {
                counts[target]++;
            }
        }
        int[][] inverse = new int[numberOfTargets][];
        for (int target = 0; target < numberOfTargets; target++) {
            inverse[target] = new int[counts[target]];
        }
        int[] filled = new int[numberOfTargets];
        for (int source = 0; source < mappings.length; source++) {
            for (int target : mappings[source]) {
                inverse[target][filled[target]++] = source;
            }
        }
        return new RescaleMappings(inverse, mappings.length);
    }

    /** The targets read by more than one source, ascending: their data must be filtered on read. */
    public int[] getAmbiguousTargets() {
        BitSet seen = new BitSet(numberOfTargets);
        BitSet ambiguous = new BitSet(numberOfTargets);
        for (int[] targets : mappings) {
            for (int target : targets) {
                if (seen.get(target)) {
                    ambiguous.set(target);
                }
                seen.set(target);
            }
        }
        return ambiguous.stream().toArray();
    }

    /**
     * True when every target {@code i} is read by source {@code i} alone and no other source reads
     * anything: the rescale moves nothing.
     */
    public boolean isIdentity() {
        if (mappings.length < numberOfTargets) {
            return false;
        }
        for (int source = 0; source < mappings.length; source++) {
            int[] targets = mappings[source];
            boolean expected = source < numberOfTargets
                    ? targets.length == 1 && targets[0] == source
                    : targets.length == 0;
            if (!expected) {
                return false;
            }
        }
        return true;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof RescaleMappings other
                && numberOfTargets == other.numberOfTargets
                && Arrays.deepEquals(mappings, other.mappings);
    }

    @Override
    public int hashCode() {
        return 31 * Arrays.deepHashCode(mappings) + numberOfTargets;
    }

    @Override
    public String toString() {
        return "RescaleMappings" + Arrays.deepToString(mappings) + " over " + numberOfTargets + " targets";
    }
}
