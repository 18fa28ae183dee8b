package dev.runnel.api.java.tuple;

import dev.runnel.util.StringUtils;
import java.io.Serializable;
import java.util.Objects;

/**
 * The base of the fixed-arity tuples {@link Tuple0} to {@link Tuple12}: small records with public,
 * mutable fields {@code f0 .. fN}, typed by their type parameters.
 *
 * <p>Tuples are the usual type of keys and of keyed records, so {@code hashCode()} is exactly Apache
 * Flink's formula ({@code result = 31 * result + hash(f_i)}, null hashing to 0): a tuple key lands in
 * the same key group as in Flink. {@code equals} compares fields with {@code equals} (arrays by
 * identity, as in Flink), and {@code toString} prints {@code (f0,f1,...)} with arrays shown element
 * by element.
 *
 * <p>Not thread-safe. Fields may be null in memory, but a tuple with a null field cannot be
 * serialized (the serializer names the field). {@link #copy()} is shallow; serializers copy deeply.
 */
public abstract class Tuple implements Serializable {

    private static final long serialVersionUID = 1L;

    /** The largest arity with a tuple class. */
    public static final int MAX_ARITY = 12;

    private static final Class<?>[] CLASSES = {
        Tuple0.class, Tuple1.class, Tuple2.class, Tuple3.class, Tuple4.class, Tuple5.class, Tuple6.class,
        Tuple7.class, Tuple8.class, Tuple9.class, Tuple10.class, Tuple11.class, Tuple12.class
    };

    /**
     * The field at {@code pos} (0-based), typed as the caller expects.
     *
     * @throws IndexOutOfBoundsException if {@code pos} is not in {@code [0, getArity())}
     */
    public abstract <T> T getField(int pos);

    /**
     * The field at {@code pos}, which must not be null.
     *
     * @throws NullPointerException naming the position if the field is null
     */
    public <T> T getFieldNotNull(int pos) {
        T field = getField(pos);
        if (field == null) {
            throw new NullPointerException(String.format("field %s of %s is null", pos, getClass().getSimpleName()));
        }
        return field;
    }

    /**
     * Sets the field at {@code pos} (0-based) to {@code value}, which must be of that field's type.
     *
     * @throws IndexOutOfBoundsException if {@code pos} is not in {@code [0, getArity())}
     */
    public abstract <T> void setField(T value, int pos);

    /** The number of fields. */
    public abstract int getArity();

    /**
     * A shallow copy: a new tuple of the same arity holding the same field objects. Each tuple class
     * narrows the return type to itself.
     */
    public abstract Tuple copy();

    /** Equal to a tuple of the same arity whose fields are pairwise {@code equals} (arrays by identity). */
    @Override
    public boolean equals(Object o) {
        if (this == o) {
            return true;
        }
        if (!(o instanceof Tuple other) || other.getArity() != getArity()) {
            return false;
        }
        for (int i = 0; i < getArity(); i++) {
            if (!Objects.equals(getField(i), other.getField(i))) {
                return false;
            }
        }
        return true;
    }

    /** Flink's formula exactly, so that tuple keys map to the same key groups as in Flink. */
    @Override
    public int hashCode() {
        int result = 0;
        for (int i = 0; i < getArity(); i++) {
            Object field = getField(i);
            result = 31 * result + (field != null ? field.hashCode() : 0);
        }
        return result;
    }

    /** {@code (f0,f1,...)}, arrays element by element. */
    @Override
    public String toString() {
        StringBuilder text = new StringBuilder("(");
        for (int i = 0; i < getArity(); i++) {
            if (i > 0) {
                text.append(',');
            }
            text.append(StringUtils.arrayAwareToString(getField(i)));
        }
        return text.append(')').toString();
    }

    /**
     * The tuple class with {@code arity} fields.
     *
     * @throws IllegalArgumentException if {@code arity} is not in {@code [0, MAX_ARITY]}
     */
    @SuppressWarnings("unchecked")
    public static Class<? extends Tuple> getTupleClass(int arity) {
        if (arity < 0 || arity > MAX_ARITY) {
            throw new IllegalArgumentException(String.format(
                    "there is no tuple with %s fields: arities 0 to %s exist; use a record or a POJO for more fields",
                    arity, MAX_ARITY));
        }
        return (Class<? extends Tuple>) CLASSES[arity];
    }

    /**
     * A new tuple with {@code arity} fields, all null; without reflection.
     *
     * @throws IllegalArgumentException if {@code arity} is not in {@code [0, MAX_ARITY]}
     */
    public static Tuple newInstance(int arity) {
        switch (arity) {
            case 0: return new Tuple0();
            case 1: return new Tuple1<>();
            case 2: return new Tuple2<>();
            case 3: return new Tuple3<>();
            case 4: return new Tuple4<>();
            case 5: return new Tuple5<>();
            case 6: return new Tuple6<>();
            case 7: return new Tuple7<>();
            case 8: return new Tuple8<>();
            case 9: return new Tuple9<>();
            case 10: return new Tuple10<>();
            case 11: return new Tuple11<>();
            case 12: return new Tuple12<>();
            default:
                getTupleClass(arity); // throws with the message
                throw new AssertionError();
        }
    }
}
