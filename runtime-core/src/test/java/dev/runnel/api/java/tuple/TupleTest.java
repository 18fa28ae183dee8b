package dev.runnel.api.java.tuple;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.util.Objects;
import org.junit.jupiter.api.Test;

class TupleTest {

    /** Flink's formula, written out independently of the tuple classes. */
    private static int flinkHash(Object... fields) {
        int result = fields[0] != null ? fields[0].hashCode() : 0;
        for (int i = 1; i < fields.length; i++) {
            result = 31 * result + (fields[i] != null ? fields[i].hashCode() : 0);
        }
        return result;
    }

    @Test
    void tuple2HashCodeIsFlinksFormula() {
        assertThat(Tuple2.of("hello", 42L).hashCode()).isEqualTo(31 * "hello".hashCode() + Long.valueOf(42L).hashCode());
        assertThat(Tuple2.of("a", 1).hashCode()).isEqualTo(flinkHash("a", 1));
        assertThat(new Tuple2<String, Long>(null, 7L).hashCode()).isEqualTo(Long.hashCode(7L));
        assertThat(new Tuple2<>("x", null).hashCode()).isEqualTo(31 * "x".hashCode());
        assertThat(new Tuple2<>().hashCode()).isZero();
        // Order matters: (a,b) and (b,a) hash differently.
        assertThat(Tuple2.of("a", "b").hashCode()).isNotEqualTo(Tuple2.of("b", "a").hashCode());
    }

    @Test
    void tuple3HashCodeIsFlinksFormula() {
        Tuple3<String, Integer, Double> t = Tuple3.of("k", -5, 2.5);
        int expected = 31 * (31 * "k".hashCode() + Integer.hashCode(-5)) + Double.hashCode(2.5);
        assertThat(t.hashCode()).isEqualTo(expected).isEqualTo(flinkHash("k", -5, 2.5));
        assertThat(Tuple3.of(null, null, "z").hashCode()).isEqualTo("z".hashCode());
    }

    @Test
    void everyArityHashesWithFlinksFormula() {
        for (int arity = 1; arity <= Tuple.MAX_ARITY; arity++) {
            Tuple t = Tuple.newInstance(arity);
            Object[] fields = new Object[arity];
            for (int i = 0; i < arity; i++) {
                fields[i] = i % 3 == 1 ? null : "v" + i * 7;
                t.setField(fields[i], i);
            }
            assertThat(t.hashCode()).as("Tuple%s", arity).isEqualTo(flinkHash(fields));
            assertThat(t.getArity()).isEqualTo(arity);
            assertThat(t.getClass()).isEqualTo(Tuple.getTupleClass(arity));
        }
        assertThat(Tuple0.INSTANCE.hashCode()).isZero();
    }

    @Test
    void equality() {
        assertThat(Tuple2.of("a", 1)).isEqualTo(Tuple2.of("a", 1)).isNotEqualTo(Tuple2.of("a", 2));
        assertThat(Tuple2.of("a", 1)).isNotEqualTo(Tuple3.of("a", 1, null));
        assertThat(new Tuple2<>(null, null)).isEqualTo(new Tuple2<>());
        assertThat(new Tuple0()).isEqualTo(Tuple0.INSTANCE);
        // A subclass with the same fields is equal, as in Flink.
        class WordCount extends Tuple2<String, Integer> {
            WordCount(String w, int c) {
                super(w, c);
            }
        }
        assertThat(Tuple2.of("w", 3)).isEqualTo(new WordCount("w", 3));
        // Arrays compare by identity, as in Flink.
        byte[] bytes = {1};
        assertThat(Tuple1.of(bytes)).isEqualTo(Tuple1.of(bytes)).isNotEqualTo(Tuple1.of(new byte[] {1}));
    }

    @Test
    void toStringPrintsFieldsAndArrays() {
        assertThat(Tuple2.of("a", 1L)).hasToString("(a,1)");
        assertThat(Tuple3.of(new int[] {1, 2}, null, new String[] {"x"})).hasToString("([1, 2],null,[x])");
        assertThat(Tuple0.INSTANCE).hasToString("()");
        assertThat(Tuple1.of(Tuple2.of(1, 2))).hasToString("((1,2))");
    }

    @Test
    void fieldAccess() {
        Tuple3<String, Integer, Long> t = new Tuple3<>();
        t.setField("s", 0);
        t.setField(2, 1);
        t.setField(3L, 2);
        assertThat(t.f0).isEqualTo("s");
        assertThat((Integer) t.getField(1)).isEqualTo(2);
        assertThat((Long) t.getFieldNotNull(2)).isEqualTo(3L);
        t.setFields("q", null, 9L);
        assertThat(t).isEqualTo(Tuple3.of("q", null, 9L));
        assertThatThrownBy(() -> t.getFieldNotNull(1)).isInstanceOf(NullPointerException.class).hasMessageContaining("field 1");
        assertThatThrownBy(() -> t.getField(3)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThatThrownBy(() -> t.setField("x", -1)).isInstanceOf(IndexOutOfBoundsException.class);
        assertThat(Tuple2.of(1, "b").swap()).isEqualTo(Tuple2.of("b", 1));
    }

    @Test
    void copyIsShallow() {
        StringBuilder mutable = new StringBuilder("m");
        Tuple2<StringBuilder, Integer> t = Tuple2.of(mutable, 1);
        Tuple2<StringBuilder, Integer> copy = t.copy();
        assertThat(copy).isNotSameAs(t).isEqualTo(t);
        assertThat(copy.f0).isSameAs(mutable);
        Tuple12<Integer, Integer, Integer, Integer, Integer, Integer, Integer, Integer, Integer, Integer, Integer, Integer> big =
                Tuple12.of(0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11);
        assertThat(big.copy()).isEqualTo(big);
        assertThat((Integer) big.getField(11)).isEqualTo(11);
    }

    @Test
    void tupleClassesByArity() {
        assertThat(Tuple.getTupleClass(0)).isEqualTo(Tuple0.class);
        assertThat(Tuple.getTupleClass(12)).isEqualTo(Tuple12.class);
        assertThatThrownBy(() -> Tuple.getTupleClass(13)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("13 fields");
        assertThatThrownBy(() -> Tuple.newInstance(-1)).isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void javaSerializationKeepsTuple0Singleton() throws Exception {
        ByteArrayOutputStream bos = new ByteArrayOutputStream();
        try (ObjectOutputStream oos = new ObjectOutputStream(bos)) {
            oos.writeObject(Tuple0.INSTANCE);
            oos.writeObject(Tuple2.of("a", 1));
        }
        try (ObjectInputStream ois = new ObjectInputStream(new ByteArrayInputStream(bos.toByteArray()))) {
            assertThat(ois.readObject()).isSameAs(Tuple0.INSTANCE);
            assertThat(Objects.equals(ois.readObject(), Tuple2.of("a", 1))).isTrue();
        }
    }
}
