package dev.runnel.api.java.tuple;

/**
 * A tuple with no fields, for streams whose records carry no data (only their presence matters).
 * All instances are equal; {@link #INSTANCE} saves allocating. Its hash code is 0 and it prints as
 * {@code ()}, as in Flink.
 */
public class Tuple0 extends Tuple {

    private static final long serialVersionUID = 1L;

    /** The shared instance; any {@code new Tuple0()} equals it. */
    public static final Tuple0 INSTANCE = new Tuple0();

    /** Creates a tuple with no fields; {@link #INSTANCE} does the same without allocating. */
    public Tuple0() {}

    /** The shared instance. */
    public static Tuple0 of() {
        return INSTANCE;
    }

    @Override
    public int getArity() {
        return 0;
    }

    @Override
    public <T> T getField(int pos) {
        throw new IndexOutOfBoundsException(String.valueOf(pos));
    }

    @Override
    public <T> void setField(T value, int pos) {
        throw new IndexOutOfBoundsException(String.valueOf(pos));
    }

    @Override
    public Tuple0 copy() {
        return new Tuple0();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
