package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

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
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        Map<Key, Long> model = new HashMap<>();
        Random random = new Random(5);
        for (int op = 0; op < 200_000; op++) {
            Key key = new Key(random.nextInt(3_000));
            int hash = hash(key);
            int position = map.find(key, hash, InlineKey.NONE, 0);
            assertThat(position < 0 ? null : map.bitsAt(position)).isEqualTo(model.get(key));
            switch (random.nextInt(4)) {
                case 0, 1 -> {
                    map.put(key, hash, op, 0);
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
        assertThat(map.find(new Key(1), hash(new Key(1)), InlineKey.NONE, 0)).isNegative();
    }

    /**
     * Keys with and without an inline form in one map, all with poor hash codes so that they share probe runs:
     * removals shift forms and keys back together, a position freed by a key with a form is reused by one
     * without, and growth carries the forms along.
     */
    @Test
    void keysWithAndWithoutAnInlineFormMatchAHashMap() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        Map<Object, Long> model = new HashMap<>();
        Random random = new Random(11);
        for (int op = 0; op < 200_000; op++) {
            Object key = mixedKey(random.nextInt(2_000));
            int hash = StateMap.hash(key.hashCode() % 13, 99);
            long form = InlineKey.of(key);
            int position = map.find(key, hash, form, 0);
            assertThat(position < 0 ? null : map.bitsAt(position)).as("value of %s", key).isEqualTo(model.get(key));
            if (position >= 0) {
                assertThat(map.keyAt(position)).isEqualTo(key);
            }
            if (random.nextInt(3) == 0) {
                if (position >= 0) {
                    map.removeAt(position);
                }
                model.remove(key);
            } else if (position >= 0) {
                map.setBits(position, op);
                model.put(key, (long) op);
            } else {
                map.insert(key, hash, form, op, 0);
                model.put(key, (long) op);
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
        assertThat(map.capacity()).as("grew past its first 16 positions").isGreaterThan(16);
        assertThat(contents(map)).isEqualTo(model);
    }

    /**
     * Strings short and long (with and without a form), a non-Latin-1 string, integers, and longs in and out of
     * 56 bits.
     */
    private static Object mixedKey(int i) {
        return switch (i % 6) {
            case 0 -> "k" + i;
            case 1 -> "a-longer-key-" + i;
            case 2 -> "\u00e9\u0100" + i; // the second character is wider than a byte: no form
            case 3 -> i;
            case 4 -> (long) i;
            default -> (long) i << 58;
        };
    }

    @Test
    void putComputesTheFormItselfSoARestoredKeyIsFoundByItsForm() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        map.put("w42", StateMap.hash("w42".hashCode(), 0), 7, 0);
        map.put(42L, StateMap.hash(Long.hashCode(42L), 0), 8, 0);
        assertThat(map.bitsAt(map.find(new String("w42"), StateMap.hash("w42".hashCode(), 0), InlineKey.of("w42"), 0)))
                .isEqualTo(7);
        assertThat(map.bitsAt(map.find(42L, StateMap.hash(Long.hashCode(42L), 0), InlineKey.of(42L), 0))).isEqualTo(8);
        assertThat(map.find(42, StateMap.hash(Integer.hashCode(42), 0), InlineKey.of(42), 0))
                .as("an Integer is not the Long of the same value").isNegative();
    }

    /**
     * A key with an inline form is kept as its form only, so that the map holds no object of its own per such
     * key: what the map hands out for it is an equal key, not the instance that was put. A key without a form is
     * the instance itself. Both ways, through the map and through a snapshot, after growth and a removal that
     * shifts positions back.
     */
    @Test
    void keepsTheFormInsteadOfTheObjectOfAKeyThatHasOne() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        Map<Object, Object> putInstances = new HashMap<>();
        for (int i = 0; i < 200; i++) {
            Object key = mixedKey(i);
            if (putInstances.putIfAbsent(key, key) != null) {
                continue; // mixedKey repeats some of its longs shifted past 64 bits
            }
            int hash = StateMap.hash(key.hashCode() % 5, 0); // shared probe runs: forms and keys side by side
            map.insert(key, hash, InlineKey.of(key), i, 0);
        }
        Object gone = mixedKey(6); // "k6", a form
        map.removeAt(map.find(gone, StateMap.hash(gone.hashCode() % 5, 0), InlineKey.of(gone), 0));
        putInstances.remove(gone);

        Map<Object, Long> viaMap = contents(map);
        Map<Object, Long> viaSnapshot = contents(map.share());
        assertThat(viaMap).isEqualTo(viaSnapshot).hasSize(putInstances.size()).doesNotContainKey(gone);
        int withForm = 0;
        for (int i = 0; i < map.capacity(); i++) {
            Object key = map.keyAt(i);
            if (key == null) {
                continue;
            }
            Object put = putInstances.get(key);
            assertThat(key).isEqualTo(put).hasSameClassAs(put);
            if (InlineKey.of(key) != InlineKey.NONE) {
                withForm++;
                if (key instanceof String) { // small boxed numbers come from the JDK's caches either way
                    assertThat(key).as("%s: made from its form", key).isNotSameAs(put);
                }
            } else {
                assertThat(key).as("%s: the key without a form itself", key).isSameAs(put);
            }
        }
        assertThat(withForm).as("keys with a form among them")
                .isEqualTo(putInstances.keySet().stream().filter(k -> InlineKey.of(k) != InlineKey.NONE).count())
                .isGreaterThan(60);
    }

    @Test
    void aKeyWithoutAFormIsNotConfusedWithAFormSharingItsHash() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        int hash = StateMap.hash(1, 0);
        map.insert("w1", hash, InlineKey.of("w1"), 1, 0);
        String noForm = "a-key-of-more-than-seven-characters";
        assertThat(map.find(noForm, hash, InlineKey.NONE, 0)).isNegative();
        map.insert(noForm, hash, InlineKey.NONE, 2, 0);
        assertThat(map.bitsAt(map.find(new String(noForm), hash, InlineKey.NONE, 0))).isEqualTo(2);
        assertThat(map.bitsAt(map.find("w1", hash, InlineKey.of("w1"), 0))).isEqualTo(1);
    }

    @Test
    void whatASnapshotWasGivenNeverChanges() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        for (int i = 0; i < 100; i++) {
            map.insert(new Key(i), hash(new Key(i)), InlineKey.NONE, i, 0);
        }
        PrimitiveStateMap.Shared first = map.share();
        Map<Object, Long> atFirst = contents(first);

        // every kind of change after the share: a value write, a removal (which shifts a run back), an insert
        Key three = new Key(3);
        map.setBits(map.find(three, hash(three), InlineKey.NONE, 0), 1_000);
        Key ten = new Key(10);
        map.removeAt(map.find(ten, hash(ten), InlineKey.NONE, 0));
        PrimitiveStateMap.Shared second = map.share();
        Map<Object, Long> atSecond = contents(second);
        map.insert(new Key(500), hash(new Key(500)), InlineKey.NONE, 500, 0);
        map.clear();

        assertThat(contents(first)).isEqualTo(atFirst).hasSize(100).containsEntry(three, 3L).containsKey(ten);
        assertThat(contents(second)).isEqualTo(atSecond).hasSize(99).containsEntry(three, 1_000L).doesNotContainKey(ten);
        assertThat(map.size()).isZero();
    }

    @Test
    void aShareCostsOneCopyAtTheNextChangeAndNoneWithout() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 0);
        Key key = new Key(1);
        int position = map.insert(key, hash(key), InlineKey.NONE, 1, 0);
        PrimitiveStateMap.Shared shared = map.share();
        map.setBits(position, 2); // copies the arrays once
        PrimitiveStateMap.Shared after = map.share();
        assertThat(after.keys()).isNotSameAs(shared.keys());
        map.share();
        assertThat(map.share().slots()).as("sharing again without a change copies nothing").isSameAs(after.slots());
    }

    /**
     * A map of ten key groups, after random puts and removals (which move positions, hash words with them), splits
     * into the lower and the upper five: each half holds exactly the keys of its groups, each position still
     * knows its key's group, and the arrays a snapshot took before the split are untouched.
     */
    @Test
    void aMapOfSeveralKeyGroupsSplitsIntoHalvesThatKeepEachKeyWithItsGroup() {
        PrimitiveStateMap map = new PrimitiveStateMap(3, 12);
        Map<Object, Long> model = new HashMap<>();
        Random random = new Random(11);
        for (int op = 0; op < 40_000; op++) {
            Key key = new Key(random.nextInt(3_000));
            int hash = hash(key);
            if (random.nextInt(4) == 0) {
                int position = map.find(key, hash, InlineKey.NONE, groupOf(key));
                if (position >= 0) {
                    map.removeAt(position);
                }
                model.remove(key);
            } else {
                map.put(key, hash, op, groupOf(key));
                model.put(key, (long) op);
            }
        }
        PrimitiveStateMap.Shared before = map.share();
        PrimitiveStateMap[] halves = map.split();

        assertThat(halves[0].firstOffset).isEqualTo(3);
        assertThat(halves[0].lastOffset).isEqualTo(7);
        assertThat(halves[1].firstOffset).isEqualTo(8);
        assertThat(halves[1].lastOffset).isEqualTo(12);
        for (PrimitiveStateMap half : halves) {
            Map<Object, Long> expected = new HashMap<>(model);
            expected.keySet().removeIf(k -> groupOf((Key) k) < half.firstOffset || groupOf((Key) k) > half.lastOffset);
            assertThat(contents(half)).isEqualTo(expected);
            assertThat(half.size()).isEqualTo(expected.size());
            PrimitiveStateMap.Shared shared = half.share();
            for (int i = 0; i < shared.capacity(); i++) {
                if (!shared.isEmpty(i)) {
                    assertThat(shared.keyGroupOffset(i)).isEqualTo(groupOf((Key) shared.key(i)));
                }
            }
            for (Object key : expected.keySet()) {
                assertThat(half.find(key, hash((Key) key), InlineKey.NONE, groupOf((Key) key)))
                        .as("found by its hash").isNotNegative();
            }
        }
        assertThat(contents(before)).as("what a snapshot holds").isEqualTo(model);
        assertThatThrownBy(() -> new PrimitiveStateMap(5, 5).split()).isInstanceOf(IllegalStateException.class);
    }

    /** A map of several key groups answers as maps per key group would: a key is found only in its own group. */
    @Test
    void theSameKeyInTwoKeyGroupsOfOneMapIsTwoMappings() {
        PrimitiveStateMap map = new PrimitiveStateMap(0, 3);
        int formHash = StateMap.hash("w7".hashCode(), 0);
        Key key = new Key(5);
        map.put("w7", formHash, 1, 1);
        map.put("w7", formHash, 2, 2);
        map.put(key, hash(key), 3, 1);
        map.put(key, hash(key), 4, 3);
        assertThat(map.size()).isEqualTo(4);
        assertThat(map.bitsAt(map.find("w7", formHash, InlineKey.of("w7"), 1))).isEqualTo(1);
        assertThat(map.bitsAt(map.find("w7", formHash, InlineKey.of("w7"), 2))).isEqualTo(2);
        assertThat(map.find("w7", formHash, InlineKey.of("w7"), 0)).isNegative();
        assertThat(map.bitsAt(map.find(key, hash(key), InlineKey.NONE, 1))).isEqualTo(3);
        assertThat(map.bitsAt(map.find(key, hash(key), InlineKey.NONE, 3))).isEqualTo(4);
        assertThat(map.find(key, hash(key), InlineKey.NONE, 2)).isNegative();
    }

    /** Ten key groups from offset 3, by the key's id. */
    private static int groupOf(Key key) {
        return 3 + Math.floorMod(key.id(), 10);
    }

    /**
     * Only a map of several key groups, and only once full at {@link PrimitiveStateMap#MAX_SHARED_CAPACITY}, asks to
     * be split.
     */
    @Test
    void onlyAFullMapOfSeveralKeyGroupsAtTheLargestSharedCapacityAsksToSplit() {
        PrimitiveStateMap several = new PrimitiveStateMap(0, 1);
        PrimitiveStateMap single = new PrimitiveStateMap(0, 0);
        int full = StateMap.thresholdFor(PrimitiveStateMap.MAX_SHARED_CAPACITY);
        for (long k = 0; k < full; k++) {
            if (k % 65_536 == 0) {
                assertThat(several.shouldSplitBeforeInsert()).as("at %s keys", k).isFalse();
            }
            int hash = StateMap.hash(Long.hashCode(k), 0);
            several.insert(k, hash, InlineKey.of(k), k, (int) (k & 1));
            single.insert(k, hash, InlineKey.of(k), k, 0);
        }
        assertThat(several.capacity()).isEqualTo(PrimitiveStateMap.MAX_SHARED_CAPACITY);
        assertThat(several.shouldSplitBeforeInsert()).isTrue();
        assertThat(single.shouldSplitBeforeInsert()).as("one key group grows as far as it needs").isFalse();
    }

    private static Map<Object, Long> contents(PrimitiveStateMap map) {
        Map<Object, Long> all = new HashMap<>();
        for (int i = 0; i < map.capacity(); i++) {
            if (map.keyAt(i) != null) {
                assertThat(all.put(map.keyAt(i), map.bitsAt(i))).as("each key once").isNull();
            }
        }
        return all;
    }

    private static Map<Object, Long> contents(PrimitiveStateMap.Shared shared) {
        Map<Object, Long> all = new HashMap<>();
        for (int i = 0; i < shared.capacity(); i++) {
            if (shared.key(i) != null) {
                assertThat(all.put(shared.key(i), shared.bits(i))).as("each key once").isNull();
            }
        }
        return all;
    }
}
