package dev.runnel.runtime.state;

import dev.runnel.util.MathUtils;
import dev.runnel.util.Preconditions;

/**
 * Which key group a key belongs to, and which subtask owns which key groups: the arithmetic that
 * decides where keyed state lives. It matches Apache Flink's class of the same name bit for bit, so
 * keys land in the same key group and on the same subtask index as in Flink.
 *
 * <pre>
 *   key ──hashCode()──► murmurHash ──% maxParallelism──► key group
 *   key group ──(kg * parallelism / maxParallelism)──► operator (subtask) index
 *
 *   maxParallelism 128, parallelism 3:
 *     subtask 0 owns [0, 42]   subtask 1 owns [43, 85]   subtask 2 owns [86, 127]
 * </pre>
 *
 * <p>Every method is a pure function, safe from any thread. Invalid arguments throw
 * {@link IllegalArgumentException} naming the argument and its bound; a null key throws
 * {@link NullPointerException}.
 */
public final class KeyGroupRangeAssignment {

    /** Max parallelism used when neither the job nor the operator sets one and parallelism is small. */
    public static final int DEFAULT_LOWER_BOUND_MAX_PARALLELISM = 1 << 7;

    /** The largest max parallelism (number of key groups) there can be. */
    public static final int UPPER_BOUND_MAX_PARALLELISM = 1 << 15;

    private KeyGroupRangeAssignment() {}

    /** The subtask index, in {@code [0, parallelism)}, that owns {@code key}. */
    public static int assignKeyToParallelOperator(Object key, int maxParallelism, int parallelism) {
        checkKeyNotNull(key);
        checkParallelisms(maxParallelism, parallelism);
        return computeOperatorIndexForKeyGroup(
                maxParallelism, parallelism, computeKeyGroupForKeyHash(key.hashCode(), maxParallelism));
    }

    /** The key group, in {@code [0, maxParallelism)}, of {@code key}. */
    public static int assignToKeyGroup(Object key, int maxParallelism) {
        checkKeyNotNull(key);
        return computeKeyGroupForKeyHash(key.hashCode(), maxParallelism);
    }

    /** The key group of a key whose {@code hashCode()} is {@code keyHash}. */
    public static int computeKeyGroupForKeyHash(int keyHash, int maxParallelism) {
        checkMaxParallelism(maxParallelism);
        int murmur = MathUtils.murmurHash(keyHash); // never negative
        // For a power of two (a default max parallelism always is) the remainder of a non-negative number is its
        // low bits: the same result without the division, whose latency a keyBy sender pays on every record.
        int lowBits = maxParallelism - 1;
        return (maxParallelism & lowBits) == 0 ? murmur & lowBits : murmur % maxParallelism;
    }

    /** The key groups subtask {@code operatorIndex} of {@code parallelism} owns. */
    public static KeyGroupRange computeKeyGroupRangeForOperatorIndex(
            int maxParallelism, int parallelism, int operatorIndex) {
        checkParallelisms(maxParallelism, parallelism);
        Preconditions.checkArgument(operatorIndex >= 0 && operatorIndex < parallelism,
                "operatorIndex must be in [0, parallelism=%s), was %s", parallelism, operatorIndex);
        int start = ((operatorIndex * maxParallelism + parallelism - 1) / parallelism);
        int end = ((operatorIndex + 1) * maxParallelism - 1) / parallelism;
        return KeyGroupRange.of(start, end);
    }

    /** The subtask index that owns {@code keyGroupId}. */
    public static int computeOperatorIndexForKeyGroup(int maxParallelism, int parallelism, int keyGroupId) {
        checkParallelisms(maxParallelism, parallelism);
        // explicit, as checkMaxParallelism: a custom partitioner calls this for every record
        if (keyGroupId < 0 || keyGroupId >= maxParallelism) {
            throw new IllegalArgumentException(String.format("keyGroupId must be in [0, maxParallelism=%s), was %s",
                    maxParallelism, keyGroupId));
        }
        return keyGroupId * parallelism / maxParallelism;
    }

    /**
     * The max parallelism to use when none is set: 1.5 x parallelism rounded up to a power of two,
     * at least 128 and at most 32768.
     */
    public static int computeDefaultMaxParallelism(int parallelism) {
        Preconditions.checkArgument(parallelism > 0 && parallelism <= UPPER_BOUND_MAX_PARALLELISM,
                "parallelism must be in (0, %s], was %s", UPPER_BOUND_MAX_PARALLELISM, parallelism);
        return Math.min(
                Math.max(MathUtils.roundUpToPowerOfTwo(parallelism + (parallelism / 2)),
                        DEFAULT_LOWER_BOUND_MAX_PARALLELISM),
                UPPER_BOUND_MAX_PARALLELISM);
    }

    /** Checks {@code 0 < maxParallelism <= 32768}. */
    public static void checkMaxParallelism(int maxParallelism) {
        // An explicit branch rather than Preconditions: this runs for every keyed record, and the
        // varargs call would box both ints and allocate an array even when the check passes.
        if (maxParallelism <= 0 || maxParallelism > UPPER_BOUND_MAX_PARALLELISM) {
            throw new IllegalArgumentException(String.format("maxParallelism must be in (0, %s], was %s",
                    UPPER_BOUND_MAX_PARALLELISM, maxParallelism));
        }
    }

    /** Checks {@code 0 < parallelism <= maxParallelism <= 32768}. */
    public static void checkParallelisms(int maxParallelism, int parallelism) {
        checkMaxParallelism(maxParallelism);
        // explicit, as checkMaxParallelism: assignKeyToParallelOperator runs this for every record
        if (parallelism <= 0) {
            throw new IllegalArgumentException("parallelism must be > 0, was " + parallelism);
        }
        if (parallelism > maxParallelism) {
            throw new IllegalArgumentException(String.format("parallelism must be <= maxParallelism (%s), was %s",
                    maxParallelism, parallelism));
        }
    }

    private static void checkKeyNotNull(Object key) {
        // explicit for the same reason as checkMaxParallelism: no varargs array per record
        if (key == null) {
            throw new NullPointerException(
                    "key must not be null: a key selector returned null; keyed streams need a key for every record");
        }
    }
}
