package dev.runnel.api.java.tuple;


/**
 * A tuple with 3 fields, {@code f0} to {@code f2}. See {@link Tuple} for the contract: public mutable
 * fields, Flink's {@code hashCode} formula, not thread-safe.
 *
 * @param <T0> the type of field 0
 * @param <T1> the type of field 1
 * @param <T2> the type of field 2
 */
public class Tuple3<T0, T1, T2> extends Tuple {

    private static final long serialVersionUID = 1L;

    /** Field 0. */
    public T0 f0;

    /** Field 1. */
    public T1 f1;

    /** Field 2. */
    public T2 f2;

    /** Creates a tuple with all fields null. */
    public Tuple3() {}

    /** Creates a tuple with the given fields. */
    public Tuple3(T0 f0, T1 f1, T2 f2) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
    }

    /** Creates a tuple with the given fields, inferring its type parameters. */
    public static <T0, T1, T2> Tuple3<T0, T1, T2> of(T0 f0, T1 f1, T2 f2) {
        return new Tuple3<>(f0, f1, f2);
    }

    /** Sets all fields at once. */
    public void setFields(T0 f0, T1 f1, T2 f2) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
    }

    @Override
    public int getArity() {
        return 3;
    }

    @Override
    @SuppressWarnings("unchecked")
    public <T> T getField(int pos) {
        switch (pos) {
            case 0:
                return (T) this.f0;
            case 1:
                return (T) this.f1;
            case 2:
                return (T) this.f2;
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
            case 2:
                this.f2 = (T2) value;
                break;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    public Tuple3<T0, T1, T2> copy() {
        return new Tuple3<>(this.f0, this.f1, this.f2);
    }
}
