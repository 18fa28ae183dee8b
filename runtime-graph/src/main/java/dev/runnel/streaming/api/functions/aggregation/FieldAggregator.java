package dev.runnel.streaming.api.functions.aggregation;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import dev.runnel.api.java.typeutils.RecordTypeInfo;
import dev.runnel.api.java.typeutils.TupleTypeInfo;
import java.math.BigDecimal;
import java.math.BigInteger;

/**
 * {@code sum}, {@code min}, {@code max}, {@code minBy} and {@code maxBy} of one field, as a rolling
 * reduce with Flink's semantics: {@code sum/min/max} keep the other fields of the first record of the
 * key and replace the aggregated field; {@code minBy/maxBy} keep the whole record holding the extreme
 * value (on ties the first such record, or the last when built with {@code first = false}).
 */
public final class FieldAggregator<T> implements ReduceFunction<T> {

    private static final long serialVersionUID = 1L;

    /** The aggregations. */
    public enum Kind {
        SUM, MIN, MAX, MIN_BY, MAX_BY
    }

    private final Kind kind;
    private final FieldAccessor<T> field;
    private final Adder adder;
    /** For {@code minBy/maxBy}: on ties keep the first record (true) or take the later one. */
    private final boolean first;

    private FieldAggregator(Kind kind, FieldAccessor<T> field, Class<?> fieldClass, String fieldName, boolean first) {
        this.kind = kind;
        this.field = field;
        this.adder = kind == Kind.SUM ? Adder.forClass(fieldClass, fieldName) : null;
        this.first = first;
    }

    public static <T> FieldAggregator<T> byPosition(Kind kind, TypeInformation<T> type, int position) {
        return byPosition(kind, type, position, true);
    }

    /** {@code first} decides ties of {@code minBy/maxBy}: keep the first record, or the last. */
    public static <T> FieldAggregator<T> byPosition(Kind kind, TypeInformation<T> type, int position, boolean first) {
        FieldAccessor<T> accessor = FieldAccessor.forPosition(type, position);
        return new FieldAggregator<>(kind, accessor, fieldClass(type, position), "field " + position + " of " + type,
                first);
    }

    /** By field name; a POJO field is replaced in a copy made with a serializer of the default config. */
    public static <T> FieldAggregator<T> byName(Kind kind, TypeInformation<T> type, String field) {
        return byName(kind, type, field, true);
    }

    /** {@code first} decides ties of {@code minBy/maxBy}: keep the first record, or the last. */
    public static <T> FieldAggregator<T> byName(Kind kind, TypeInformation<T> type, String field, boolean first) {
        return byName(kind, type, field, first, new SerializerConfig());
    }

    /** By field name, ties of {@code minBy/maxBy} keep the first record; {@code config} is the job's. */
    public static <T> FieldAggregator<T> byName(Kind kind, TypeInformation<T> type, String field, SerializerConfig config) {
        return byName(kind, type, field, true, config);
    }

    /**
     * By field name: a POJO field, a record component, or a tuple field {@code fN}. {@code first}
     * decides ties of {@code minBy/maxBy} (keep the first record, or the last); {@code config} (the
     * job's) configures the serializer that copies a POJO before its field is replaced.
     */
    public static <T> FieldAggregator<T> byName(Kind kind, TypeInformation<T> type, String field, boolean first,
            SerializerConfig config) {
        FieldAccessor<T> accessor = FieldAccessor.forName(type, field, config);
        int index = indexOf(type, field);
        Class<?> fieldClass = index < 0 ? null : fieldClass(type, index);
        return new FieldAggregator<>(kind, accessor, fieldClass, "field '" + field + "' of " + type, first);
    }

    /** The position of a named field in the type's own order, or -1 if the type does not say. */
    private static int indexOf(TypeInformation<?> type, String field) {
        if (type instanceof PojoTypeInfo<?> pojo) {
            return pojo.getFieldIndex(field);
        }
        if (type instanceof RecordTypeInfo<?>) {
            java.lang.reflect.RecordComponent[] components = type.getTypeClass().getRecordComponents();
            for (int i = 0; i < components.length; i++) {
                if (components[i].getName().equals(field)) {
                    return i;
                }
            }
            return -1;
        }
        return field.matches("f\\d+") ? Integer.parseInt(field.substring(1)) : -1;
    }

    /** The declared class of field {@code position}, or null when the type does not say. */
    private static Class<?> fieldClass(TypeInformation<?> type, int position) {
        if (type instanceof TupleTypeInfo<?> tuple) {
            return tuple.getTypeAt(position).getTypeClass();
        }
        if (type instanceof RecordTypeInfo<?> record) {
            return record.getTypeAt(position).getTypeClass();
        }
        if (type instanceof PojoTypeInfo<?> pojo) {
            return pojo.getTypeAt(position).getTypeClass();
        }
        return type.isBasicType() ? type.getTypeClass() : null;
    }

    @Override
    public T reduce(T current, T next) {
        Object a = field.get(current);
        Object b = field.get(next);
        return switch (kind) {
            case SUM -> field.withField(current, adder.add(a, b));
            case MIN -> compare(b, a) < 0 ? field.withField(current, b) : current;
            case MAX -> compare(b, a) > 0 ? field.withField(current, b) : current;
            case MIN_BY -> takesNext(compare(a, b)) ? next : current;
            case MAX_BY -> takesNext(compare(b, a)) ? next : current;
        };
    }

    /** Whether {@code minBy/maxBy} takes the next record: it is better ({@code > 0}), or as good and ties go to the last. */
    private boolean takesNext(int nextIsBetter) {
        return nextIsBetter > 0 || (nextIsBetter == 0 && !first);
    }

    /**
     * The {@code +} of one numeric type, chosen once from the field's declared type so the record path makes
     * no type tests; {@link #DYNAMIC} only when the type does not say (a field declared as {@code Number}).
     */
    private enum Adder {
        INT { Object add(Object a, Object b) { return (Integer) a + (Integer) b; } },
        LONG { Object add(Object a, Object b) { return (Long) a + (Long) b; } },
        DOUBLE { Object add(Object a, Object b) { return (Double) a + (Double) b; } },
        FLOAT { Object add(Object a, Object b) { return (Float) a + (Float) b; } },
        SHORT { Object add(Object a, Object b) { return (short) ((Short) a + (Short) b); } },
        BYTE { Object add(Object a, Object b) { return (byte) ((Byte) a + (Byte) b); } },
        BIG_DECIMAL { Object add(Object a, Object b) { return ((BigDecimal) a).add((BigDecimal) b); } },
        BIG_INTEGER { Object add(Object a, Object b) { return ((BigInteger) a).add((BigInteger) b); } },
        DYNAMIC {
            Object add(Object a, Object b) {
                Adder exact = a == null ? null : known(a.getClass());
                if (exact == null) {
                    throw new IllegalArgumentException("sum() needs a numeric field, found "
                            + (a == null ? "null" : a.getClass().getName()));
                }
                return exact.add(a, b);
            }
        };

        abstract Object add(Object a, Object b);

        static Adder forClass(Class<?> type, String what) {
            if (type == null || type == Object.class || type == Number.class) {
                return DYNAMIC;
            }
            Adder exact = known(type);
            if (exact == null) {
                throw new IllegalArgumentException("sum() needs a numeric field, but " + what + " is a "
                        + type.getName() + ", which does not support the + operator.");
            }
            return exact;
        }

        private static Adder known(Class<?> type) {
            if (type == Integer.class || type == int.class) {
                return INT;
            } else if (type == Long.class || type == long.class) {
                return LONG;
            } else if (type == Double.class || type == double.class) {
                return DOUBLE;
            } else if (type == Float.class || type == float.class) {
                return FLOAT;
            } else if (type == Short.class || type == short.class) {
                return SHORT;
            } else if (type == Byte.class || type == byte.class) {
                return BYTE;
            } else if (type == BigDecimal.class) {
                return BIG_DECIMAL;
            } else if (type == BigInteger.class) {
                return BIG_INTEGER;
            }
            return null;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static int compare(Object a, Object b) {
        if (!(a instanceof Comparable)) {
            throw new IllegalArgumentException("min/max need a comparable field, found "
                    + (a == null ? "null" : a.getClass().getName()));
        }
        return ((Comparable) a).compareTo(b);
    }
}
