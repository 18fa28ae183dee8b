package dev.runnel.runtime.state.heap;

/**
 * The one rule that the heap store's linear-probing tables ({@link StateMap}, {@link SlotIndex}, the
 * indexes of {@link BucketedPriorityQueueSet}) share for deleting without tombstones: after emptying
 * a position, later positions of the same probe run move back into the hole when that keeps them
 * reachable from their home position. Stateless.
 */
final class LinearProbing {

    private LinearProbing() {}

    /**
     * Whether the entry at {@code position}, whose home position is {@code home}, may move back into
     * the empty {@code hole} (earlier in the same run): true unless its home lies cyclically in
     * {@code (hole, position]}, where moving it would put it before its home.
     */
    static boolean canMoveBack(int home, int hole, int position) {
        boolean homeAfterHole = hole <= position ? (home > hole && home <= position) : (home > hole || home <= position);
        return !homeAfterHole;
    }
}
