package dev.runnel.runtime.state.heap;

import static org.assertj.core.api.Assertions.assertThat;

import dev.runnel.configuration.Configuration;
import dev.runnel.runtime.state.StateBackendFactory;
import dev.runnel.runtime.state.hashmap.HashMapStateBackend;
import dev.runnel.runtime.state.hashmap.HeapStateBackendFactory;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Arrays;
import java.util.HashMap;
import java.util.Map;
import java.util.Random;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

/** The heap store's hash map against java.util.HashMap, and how the store is found by configuration. */
@Timeout(60)
class HeapStoreInternalsTest {

    /** A key with a poor hash code, so that many keys share buckets. */
    private record Key(int id) {
        @Override
        public int hashCode() {
            return id % 7;
        }
    }

    @Test
    void theStateMapMatchesAHashMapUnderRandomOperations() {
        randomOperations(new StateMap<>(false));
    }

    @Test
    void theChurnLayoutMatchesAHashMapUnderRandomOperations() {
        randomOperations(new StateMap<>(true));
    }

    private static void randomOperations(StateMap<Key, Integer, String> map) {
        Map<String, String> model = new HashMap<>();
        Random random = new Random(3);
        for (int op = 0; op < 200_000; op++) {
            Key key = new Key(random.nextInt(5_000));
            Integer namespace = random.nextInt(4);
            int hash = StateMap.hash(key.hashCode(), namespace.hashCode());
            String id = key.id() + "/" + namespace;
            switch (random.nextInt(3)) {
                case 0 -> {
                    map.put(key, namespace, hash, "v" + op);
                    model.put(id, "v" + op);
                }
                case 1 -> {
                    StateMap.Entry<Key, Integer, String> removed = map.remove(key, namespace, hash);
                    String expected = model.remove(id);
                    assertThat(removed == null ? null : removed.state).isEqualTo(expected);
                }
                default -> {
                    StateMap.Entry<Key, Integer, String> e = map.get(key, namespace, hash);
                    assertThat(e == null ? null : e.state).isEqualTo(model.get(id));
                }
            }
            assertThat(map.size()).isEqualTo(model.size());
        }
        Map<String, String> all = new HashMap<>();
        for (StateMap.Entry<Key, Integer, String> e : map.slots()) {
            if (e != null) {
                assertThat(all.put(e.key.id() + "/" + e.namespace, e.state)).as("each mapping once").isNull();
            }
        }
        assertThat(all).isEqualTo(model);
        map.clear();
        assertThat(map.size()).isZero();
    }

    @Test
    void entriesStayValidAcrossResizes() {
        entriesStayValid(new StateMap<>(false));
        entriesStayValid(new StateMap<>(true));
    }

    private static void entriesStayValid(StateMap<Key, Integer, String> map) {
        StateMap.Entry<Key, Integer, String> first = map.insert(new Key(0), 0, StateMap.hash(0, 0), "first");
        for (int i = 1; i < 10_000; i++) {
            map.insert(new Key(i), 0, StateMap.hash(new Key(i).hashCode(), 0), "v" + i);
        }
        first.state = "changed in place";
        assertThat(map.get(new Key(0), 0, StateMap.hash(0, 0)).state).isEqualTo("changed in place");
        // and across the shifts that removing other entries of its probe run causes
        for (int i = 1; i < 10_000; i += 2) {
            map.remove(new Key(i), 0, StateMap.hash(new Key(i).hashCode(), 0));
        }
        assertThat(map.get(new Key(0), 0, StateMap.hash(0, 0))).isSameAs(first);
        assertThat(map.size()).isEqualTo(5_000);
    }

    @Test
    void aChurnMapThatEmptiesStartsOverSmallAndKeepsWorking() {
        StateMap<Key, Integer, String> map = new StateMap<>(true);
        for (int window = 0; window < 5; window++) {
            for (int i = 0; i < 3_000; i++) {
                map.insert(new Key(i), window, StateMap.hash(new Key(i).hashCode(), window), "w" + window + "/" + i);
            }
            assertThat(map.capacity()).isGreaterThanOrEqualTo(4_096);
            StateMap.Entry<Key, Integer, String>[] shared = map.share(); // as a snapshot taken before the window fires
            Object[] asShared = shared.clone();
            for (int i = 0; i < 3_000; i++) {
                StateMap.Entry<Key, Integer, String> removed =
                        map.remove(new Key(i), window, StateMap.hash(new Key(i).hashCode(), window));
                assertThat(removed.state).isEqualTo("w" + window + "/" + i);
            }
            assertThat(map.size()).isZero();
            assertThat(map.capacity()).as("emptied: small again").isEqualTo(16);
            assertThat(Arrays.equals(shared, asShared)).as("the snapshot's array is untouched").isTrue();
            assertThat(map.get(new Key(7), window, StateMap.hash(new Key(7).hashCode(), window))).isNull();
        }
        // a map that started over takes entries again at once
        map.insert(new Key(1), 9, StateMap.hash(new Key(1).hashCode(), 9), "again");
        assertThat(map.get(new Key(1), 9, StateMap.hash(new Key(1).hashCode(), 9)).state).isEqualTo("again");
        assertThat(map.size()).isEqualTo(1);
    }

    @Test
    void aChurnMapRefillsAtTheSizeItsLastWindowNeededAndFollowsItDown() {
        StateMap<Key, Integer, String> map = new StateMap<>(true);
        fillAndEmpty(map, 0, 3_000);
        assertThat(map.capacity()).isEqualTo(16);
        map.insert(new Key(0), 1, StateMap.hash(new Key(0).hashCode(), 1), "first of the next window");
        int refilled = map.capacity();
        assertThat(refilled).as("room for 3,000 at once, no doubling").isEqualTo(8_192);
        for (int i = 1; i < 3_000; i++) {
            map.insert(new Key(i), 1, StateMap.hash(new Key(i).hashCode(), 1), "w1/" + i);
            assertThat(map.capacity()).isEqualTo(refilled);
        }
        for (int i = 0; i < 3_000; i++) {
            assertThat(map.remove(new Key(i), 1, StateMap.hash(new Key(i).hashCode(), 1)).state)
                    .isEqualTo(i == 0 ? "first of the next window" : "w1/" + i);
        }
        // a smaller window next: the one after it refills at the smaller size
        fillAndEmpty(map, 2, 100);
        map.insert(new Key(5), 3, StateMap.hash(new Key(5).hashCode(), 3), "x");
        assertThat(map.capacity()).isEqualTo(256);
        assertThat(map.get(new Key(5), 3, StateMap.hash(new Key(5).hashCode(), 3)).state).isEqualTo("x");
    }

    private static void fillAndEmpty(StateMap<Key, Integer, String> map, int window, int entries) {
        for (int i = 0; i < entries; i++) {
            map.insert(new Key(i), window, StateMap.hash(new Key(i).hashCode(), window), "w" + window + "/" + i);
        }
        for (int i = 0; i < entries; i++) {
            assertThat(map.remove(new Key(i), window, StateMap.hash(new Key(i).hashCode(), window))).isNotNull();
        }
        assertThat(map.size()).isZero();
    }

    @Test
    void theStableLayoutKeepsItsSizeWhenEmptied() {
        StateMap<Key, Integer, String> map = new StateMap<>(false);
        for (int i = 0; i < 3_000; i++) {
            map.insert(new Key(i), 0, StateMap.hash(new Key(i).hashCode(), 0), "v" + i);
        }
        int grown = map.capacity();
        for (int i = 0; i < 3_000; i++) {
            map.remove(new Key(i), 0, StateMap.hash(new Key(i).hashCode(), 0));
        }
        assertThat(map.capacity()).as("a key's own state comes back: no shrinking").isEqualTo(grown);
    }

    @Test
    void theHeapStoreIsFoundAsHeapAndSurvivesJavaSerialization() throws Exception {
        StateBackendFactory found = null;
        for (StateBackendFactory factory : ServiceLoader.load(StateBackendFactory.class)) {
            if (factory.name().equals("heap")) {
                found = factory;
            }
        }
        assertThat(found).isInstanceOf(HeapStateBackendFactory.class);
        assertThat(found.createFromConfig(new Configuration())).isInstanceOf(HashMapStateBackend.class);
        assertThat(StateBackendFactory.STATE_BACKEND.defaultValue()).isEqualTo(found.name());
        HashMapStateBackend backend = new HashMapStateBackend();
        assertThat(backend.getName()).isEqualTo("heap");
        ByteArrayOutputStream bytes = new ByteArrayOutputStream();
        try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
            out.writeObject(backend);
        }
        try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(bytes.toByteArray()))) {
            assertThat(in.readObject()).isInstanceOf(HashMapStateBackend.class);
        }
    }
}
