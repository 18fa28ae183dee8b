package dev.runnel.api.java.tuple;


/**
 * A tuple with 2 fields, {@code f0} and {@code f1}. See {@link Tuple} for the contract: public mutable
 * fields, Flink's {@code hashCode} formula, not thread-safe.
 *
 * @param <T0> the type of field 0
 * @param <T1> the type of field 1
 */
public class Tuple2<T0, T1> extends Tuple {

    private static final long serialVersionUID = 1L;

    /** Field 0. */
    public T0 f0;

    /** Field 1. */
    public T1 f1;

    /** Creates a tuple with all fields null. */
    public Tuple2() {}

    /** Creates a tuple with the given fields. */
    public Tuple2(T0 f0, T1 f1) {
        this.f0 = f0;
        this.f1 = f1;
    }

    /** Creates a tuple with the given fields, inferring its type parameters. */
    public static <T0, T1> Tuple2<T0, T1> of(T0 f0, T1 f1) {
        return new Tuple2<>(f0, f1);
    }

    /** Sets all fields at once. */
    public void setFields(T0 f0, T1 f1) {
        this.f0 = f0;
        this.f1 = f1;
    }

    @Override
    public int getArity() {
        return 2;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
            case 0:
                return (T) this.f0;
            case 1:
                return (T) this.f1;
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
            case 1:
                this.f1 = (T1) value;
                break;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    public Tuple2<T0, T1> copy() {
        return new Tuple2<>(this.f0, this.f1);
    }

    /** A new tuple with the two fields swapped: {@code (f1,f0)}. */
    public Tuple2<T1, T0> swap() {
        return new Tuple2<>(f1, f0);
    }
}
