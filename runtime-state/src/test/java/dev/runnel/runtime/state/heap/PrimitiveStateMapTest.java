package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The entry-less map of per-key primitive values against java.util.HashMap, and what its snapshots keep. */
@Timeout(60)
class PrimitiveStateMapTest {

    /** A key with a poor hash code, so that long probe runs form and removals shift them back. */
    private record Key(int id) {
        @Override
        public int hashCode() {
            return id % 7;
        }
    }

    private static int hash(Key key) {
        return StateMap.hash(key.hashCode(), 99);
    }

    @Test
    void matchesAHashMapUnderRandomOperations() {
        PrimitiveStateMap map = new PrimitiveStateMap();
        Map<Key, Long> model = new HashMap<>();
        Random random = new Random(5);
        for (int op = 0; op < 200_000; op++) {
            Key key = new Key(random.nextInt(3_000));
            int hash = hash(key);
            int position = map.find(key, hash);
            assertThat(position < 0 ? null : map.bitsAt(position)).isEqualTo(model.get(key));
            switch (random.nextInt(4)) {
                case 0, 1 -> {
                    map.put(key, hash, op);
                    model.put(key, (long) op);
                }
                case 2 -> {
                    if (position >= 0) {
                        map.removeAt(position);
                    }
                    model.remove(key);
                }
                default -> {
                    if (position >= 0) { // a found position stays writable until the map changes
                        map.setBits(position, -op);
                        model.put(key, (long) -op);
                    }
                }
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
        assertThat(contents(map)).isEqualTo(model);
        assertThat(map.capacity()).as("grew past its first 16 positions").isGreaterThan(16);
        map.clear();
        assertThat(map.size()).isZero();
        assertThat(map.find(new Key(1), hash(new Key(1)))).isNegative();
    }

    @Test
    void whatASnapshotWasGivenNeverChanges() {
        PrimitiveStateMap map = new PrimitiveStateMap();
        for (int i = 0; i < 100; i++) {
            map.insert(new Key(i), hash(new Key(i)), i);
        }
        PrimitiveStateMap.Shared first = map.share();
        Map<Key, Long> atFirst = contents(first);

        // every kind of change after the share: a value write, a removal (which shifts a run back), an insert
        Key three = new Key(3);
        map.setBits(map.find(three, hash(three)), 1_000);
        Key ten = new Key(10);
        map.removeAt(map.find(ten, hash(ten)));
        PrimitiveStateMap.Shared second = map.share();
        Map<Key, Long> atSecond = contents(second);
        map.insert(new Key(500), hash(new Key(500)), 500);
        map.clear();

        assertThat(contents(first)).isEqualTo(atFirst).hasSize(100).containsEntry(three, 3L).containsKey(ten);
        assertThat(contents(second)).isEqualTo(atSecond).hasSize(99).containsEntry(three, 1_000L).doesNotContainKey(ten);
        assertThat(map.size()).isZero();
    }

    @Test
    void aShareCostsOneCopyAtTheNextChangeAndNoneWithout() {
        PrimitiveStateMap map = new PrimitiveStateMap();
        Key key = new Key(1);
        int position = map.insert(key, hash(key), 1);
        PrimitiveStateMap.Shared shared = map.share();
        map.setBits(position, 2); // copies the arrays once
        PrimitiveStateMap.Shared after = map.share();
        assertThat(after.keys()).isNotSameAs(shared.keys());
        map.share();
        assertThat(map.share().bits()).as("sharing again without a change copies nothing").isSameAs(after.bits());
    }

    private static Map<Key, Long> contents(PrimitiveStateMap map) {
        Map<Key, Long> all = new HashMap<>();
        for (int i = 0; i < map.capacity(); i++) {
            if (map.keyAt(i) != null) {
                assertThat(all.put((Key) map.keyAt(i), map.bitsAt(i))).as("each key once").isNull();
            }
        }
        return all;
    }

    private static Map<Key, Long> contents(PrimitiveStateMap.Shared shared) {
        Map<Key, Long> all = new HashMap<>();
        for (int i = 0; i < shared.keys().length; i++) {
            if (shared.keys()[i] != null) {
                all.put((Key) shared.keys()[i], shared.bits()[i]);
            }
        }
        return all;
    }
}
