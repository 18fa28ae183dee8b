package dev.runnel.streaming.api.functions.aggregation;

import dev.runnel.api.common.functions.ReduceFunction;
import dev.runnel.api.common.typeinfo.TypeInformation;

/**
 * {@code sum}, {@code min}, {@code max}, {@code minBy} and {@code maxBy} of one field, as a rolling
 * reduce with Flink's semantics: {@code sum/min/max} keep the other fields of the first record of the
 * key and replace the aggregated field; {@code minBy/maxBy} keep the whole record holding the extreme
 * value (the first such record on ties).
 */
public final class FieldAggregator<T> implements ReduceFunction<T> {

    private static final long serialVersionUID = 1L;

    /** The aggregations. */
    public enum Kind {
        SUM, MIN, MAX, MIN_BY, MAX_BY
    }

    private final Kind kind;
    private final FieldAccessor<T> field;

    private FieldAggregator(Kind kind, FieldAccessor<T> field) {
        this.kind = kind;
        this.field = field;
    }

    public static <T> FieldAggregator<T> byPosition(Kind kind, TypeInformation<T> type, int position) {
        return new FieldAggregator<>(kind, FieldAccessor.forPosition(type, position));
    }

    public static <T> FieldAggregator<T> byName(Kind kind, TypeInformation<T> type, String field) {
        return new FieldAggregator<>(kind, FieldAccessor.forName(type, field));
    }

    @Override
    public T reduce(T current, T next) {
        Object a = field.get(current);
        Object b = field.get(next);
        return switch (kind) {
            case SUM -> field.withField(current, add(a, b));
            case MIN -> compare(b, a) < 0 ? field.withField(current, b) : current;
            case MAX -> compare(b, a) > 0 ? field.withField(current, b) : current;
            case MIN_BY -> compare(b, a) < 0 ? next : current;
            case MAX_BY -> compare(b, a) > 0 ? next : current;
        };
    }

    private static Object add(Object a, Object b) {
        if (a instanceof Integer x) {
            return x + (Integer) b;
        }
        if (a instanceof Long x) {
            return x + (Long) b;
        }
        if (a instanceof Double x) {
            return x + (Double) b;
        }
        if (a instanceof Float x) {
            return x + (Float) b;
        }
        if (a instanceof Short x) {
            return (short) (x + (Short) b);
        }
        if (a instanceof Byte x) {
            return (byte) (x + (Byte) b);
        }
        if (a instanceof java.math.BigDecimal x) {
            return x.add((java.math.BigDecimal) b);
        }
        if (a instanceof java.math.BigInteger x) {
            return x.add((java.math.BigInteger) b);
        }
        throw new IllegalArgumentException("sum() needs a numeric field, found " + (a == null ? "null" : a.getClass().getName()));
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
