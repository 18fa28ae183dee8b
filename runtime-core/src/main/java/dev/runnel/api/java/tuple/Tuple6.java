package dev.runnel.api.java.tuple;


/**
 * A tuple with 6 fields, {@code f0} to {@code f5}. See {@link Tuple} for the contract: public mutable
 * fields, Flink's {@code hashCode} formula, not thread-safe.
 *
 * @param <T0> the type of field 0
 * @param <T1> the type of field 1
 * @param <T2> the type of field 2
 * @param <T3> the type of field 3
 * @param <T4> the type of field 4
 * @param <T5> the type of field 5
 */
public class Tuple6<T0, T1, T2, T3, T4, T5> extends Tuple {

    private static final long serialVersionUID = 1L;

    /** Field 0. */
    public T0 f0;

    /** Field 1. */
    public T1 f1;

    /** Field 2. */
    public T2 f2;

    /** Field 3. */
    public T3 f3;

    /** Field 4. */
    public T4 f4;

    /** Field 5. */
    public T5 f5;

    /** Creates a tuple with all fields null. */
    public Tuple6() {}

    /** Creates a tuple with the given fields. */
    public Tuple6(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4, T5 f5) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
        this.f3 = f3;
        this.f4 = f4;
        this.f5 = f5;
    }

    /** Creates a tuple with the given fields, inferring its type parameters. */
    public static <T0, T1, T2, T3, T4, T5> Tuple6<T0, T1, T2, T3, T4, T5> of(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4, T5 f5) {
        return new Tuple6<>(f0, f1, f2, f3, f4, f5);
    }

    /** Sets all fields at once. */
    public void setFields(T0 f0, T1 f1, T2 f2, T3 f3, T4 f4, T5 f5) {
        this.f0 = f0;
        this.f1 = f1;
        this.f2 = f2;
        this.f3 = f3;
        this.f4 = f4;
        this.f5 = f5;
    }

    @Override
    public int getArity() {
        return 6;
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
            case 3:
                return (T) this.f3;
            case 4:
                return (T) this.f4;
            case 5:
                return (T) this.f5;
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
            case 3:
                this.f3 = (T3) value;
                break;
            case 4:
                this.f4 = (T4) value;
                break;
            case 5:
                this.f5 = (T5) value;
                break;
            default:
                throw new IndexOutOfBoundsException(String.valueOf(pos));
        }
    }

    @Override
    public Tuple6<T0, T1, T2, T3, T4, T5> copy() {
        return new Tuple6<>(this.f0, this.f1, this.f2, this.f3, this.f4, this.f5);
    }
}
