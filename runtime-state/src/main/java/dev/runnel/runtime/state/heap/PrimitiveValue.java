package dev.runnel.runtime.state.heap;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.BooleanSerializer;
import dev.runnel.api.common.typeutils.base.ByteSerializer;
import dev.runnel.api.common.typeutils.base.CharSerializer;
import dev.runnel.api.common.typeutils.base.DoubleSerializer;
import dev.runnel.api.common.typeutils.base.FloatSerializer;
import dev.runnel.api.common.typeutils.base.IntSerializer;
import dev.runnel.api.common.typeutils.base.LongSerializer;
import dev.runnel.api.common.typeutils.base.ShortSerializer;

/**
 * Value-state values of a boxed primitive type ({@code Long}, {@code Integer}, ...) kept as primitive
 * bits instead of as a reference to the box: in the state entry itself ({@link StateMap.Entry#bits}) for
 * per-window state, in a {@link PrimitiveStateMap}'s array of bits for per-key state.
 *
 * <p>Why: a read-modify-write such as {@code count.update(count.value() + 1)} would otherwise store
 * a reference to a freshly boxed value into a long-lived entry. With G1, every such old-to-young
 * reference store goes through the write barrier and concurrent card refinement, which measured as
 * the largest single cost of a keyed word count; and the box is one more cache miss per read.
 * Writing the bits is a plain store. Reading a {@code Long} or {@code Integer} from 0 to
 * {@link #SHARED_BOXES} - 1 returns a box shared by all reads: the JDK shares only -128 to 127, which a
 * count leaves at its key's 128th record, and most counts in a keyed job stay far below a thousand. Reading any
 * other value boxes a new one, which is cheap and dies young. Boxes are immutable and value-based, so callers
 * cannot tell the difference.
 *
 * <p>Stateless; the shared boxes are created once, when the class is initialized.
 */
final class PrimitiveValue {

    /** How many of the smallest non-negative {@code Long}s and {@code Integer}s reads share. */
    static final int SHARED_BOXES = 1024;

    private static final Long[] LONGS = new Long[SHARED_BOXES];
    private static final Integer[] INTS = new Integer[SHARED_BOXES];

    static {
        for (int i = 0; i < SHARED_BOXES; i++) {
            LONGS[i] = Long.valueOf(i); // the JDK's own instance where it has one
            INTS[i] = Integer.valueOf(i);
        }
    }

    /** What {@link StateMap.Entry#state} holds when the value lives in the entry's bits. */
    static final Object PRESENT = new Object() {
        @Override
        public String toString() {
            return "<primitive value>";
        }
    };

    private PrimitiveValue() {}

    /** The boxed types this applies to, with their conversion to and from bits. */
    enum Kind {
        LONG {
            @Override
            long toBits(Object value) {
                return (Long) value;
            }

            @Override
            Object fromBits(long bits) {
                return bits >= 0 && bits < SHARED_BOXES ? LONGS[(int) bits] : Long.valueOf(bits);
            }
        },
        INT {
            @Override
            long toBits(Object value) {
                return (Integer) value;
            }

            @Override
            Object fromBits(long bits) {
                int value = (int) bits;
                return value >= 0 && value < SHARED_BOXES ? INTS[value] : Integer.valueOf(value);
            }
        },
        DOUBLE {
            @Override
            long toBits(Object value) {
                return Double.doubleToRawLongBits((Double) value);
            }

            @Override
            Object fromBits(long bits) {
                return Double.longBitsToDouble(bits);
            }
        },
        FLOAT {
            @Override
            long toBits(Object value) {
                return Float.floatToRawIntBits((Float) value);
            }

            @Override
            Object fromBits(long bits) {
                return Float.intBitsToFloat((int) bits);
            }
        },
        SHORT {
            @Override
            long toBits(Object value) {
                return (Short) value;
            }

            @Override
            Object fromBits(long bits) {
                return (short) bits;
            }
        },
        BYTE {
            @Override
            long toBits(Object value) {
                return (Byte) value;
            }

            @Override
            Object fromBits(long bits) {
                return (byte) bits;
            }
        },
        BOOLEAN {
            @Override
            long toBits(Object value) {
                return ((Boolean) value) ? 1 : 0;
            }

            @Override
            Object fromBits(long bits) {
                return bits != 0;
            }
        },
        CHAR {
            @Override
            long toBits(Object value) {
                return (Character) value;
            }

            @Override
            Object fromBits(long bits) {
                return (char) bits;
            }
        };

        abstract long toBits(Object value);

        abstract Object fromBits(long bits);

        /** The kind for values written by {@code serializer}, or null when its values are not boxed primitives. */
        static Kind of(TypeSerializer<?> serializer) {
            if (serializer instanceof LongSerializer) {
                return LONG;
            } else if (serializer instanceof IntSerializer) {
                return INT;
            } else if (serializer instanceof DoubleSerializer) {
                return DOUBLE;
            } else if (serializer instanceof FloatSerializer) {
                return FLOAT;
            } else if (serializer instanceof ShortSerializer) {
                return SHORT;
            } else if (serializer instanceof ByteSerializer) {
                return BYTE;
            } else if (serializer instanceof BooleanSerializer) {
                return BOOLEAN;
            } else if (serializer instanceof CharSerializer) {
                return CHAR;
            }
            return null;
        }
    }
}
