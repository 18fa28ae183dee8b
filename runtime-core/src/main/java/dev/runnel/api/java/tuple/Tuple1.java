package dev.runnel.api.java.tuple;


/**
 * A tuple with 1 field, {@code f0}. See {@link Tuple} for the contract: public mutable
 * fields, Flink's {@code hashCode} formula, not thread-safe.
 *
 * @param <T0> the type of field 0
 */
public class Tuple1<T0> extends Tuple {

    private static final long serialVersionUID = 1L;

    /** Field 0. */
    public T0 f0;

    /** Creates a tuple with all fields null. */
    public Tuple1() {}

    /** Creates a tuple with the given fields. */
    public Tuple1(T0 f0) {
        this.f0 = f0;
    }

    /** Creates a tuple with the given fields, inferring its type parameters. */
    public static <T0> Tuple1<T0> of(T0 f0) {
        return new Tuple1<>(f0);
    }

    /** Sets all fields at once. */
    public void setFields(T0 f0) {
        this.f0 = f0;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
            case 0:
                return (T) this.f0;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> void setField(T value, int pos) {
        switch (pos) {
            case 0:
                this.f0 = (T0) value;
                break;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    public Tuple1<T0> copy() {
        return new Tuple1<>(this.f0);
    }
}
