package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.HashSet;
import java.util.Set;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

class OpenHashSetTest {

    /** Colliding hash codes make long probe runs, the hard case for backward-shift deletion. */
    private record Key(int id, int hash) {
        @Override
        public int hashCode() {
            return hash;
        }
    }

    @Test
    void matchesAReferenceSetUnderRandomAddsAndRemoves() {
        OpenHashSet<Key> set = new OpenHashSet<>();
        Set<Key> reference = new HashSet<>();
        SplittableRandom random = new SplittableRandom(7);
        for (int step = 0; step < 300_000; step++) {
            Key key = new Key(random.nextInt(2_000), random.nextInt(512));
            boolean agrees;
            if (random.nextInt(3) == 0) {
                Key removed = set.remove(key);
                agrees = (removed != null) == reference.remove(key) && (removed == null || removed.equals(key));
            } else {
                agrees = (set.putIfAbsent(key) == null) == reference.add(key);
            }
            if (!agrees || set.size() != reference.size()) {
                throw new AssertionError("diverged from the reference at step " + step + " on " + key);
            }
        }
        for (Key key : reference) {
            assertThat(set.contains(key)).isTrue();
        }
        set.clear();
        assertThat(set.size()).isZero();
        assertThat(set.contains(reference.iterator().next())).isFalse();
    }

    @Test
    void putIfAbsentReturnsTheQueuedInstance() {
        OpenHashSet<String> set = new OpenHashSet<>();
        String first = new String("timer");
        assertThat(set.putIfAbsent(first)).isNull();
        assertThat(set.putIfAbsent(new String("timer"))).isSameAs(first);
        assertThat(set.remove(new String("timer"))).isSameAs(first);
        assertThat(set.remove("timer")).isNull();
    }
}
