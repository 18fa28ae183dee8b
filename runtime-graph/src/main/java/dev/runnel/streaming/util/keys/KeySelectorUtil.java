package dev.runnel.streaming.util.keys;

import dev.runnel.api.common.InvalidProgramException;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.functions.KeySelector;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.typeutils.PojoField;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import dev.runnel.api.java.typeutils.TupleTypeInfo;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.Serializable;
import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.List;

/**
 * Key selectors for Flink's field keys: {@code keyBy(0, 2)} by tuple positions and {@code keyBy("user.id")}
 * by field expressions (a tuple field {@code f0} or its position, a POJO field, a path through nested POJOs).
 * The key is a {@link Tuple} of the selected fields, as in Flink, so it hashes to the same key groups as there.
 */
public final class KeySelectorUtil {

    private KeySelectorUtil() {}

    /** A selector of the fields at {@code positions} of a tuple type, with the key's type. */
    public static <T> Keyed<T> forPositions(TypeInformation<T> type, int... positions) {
        if (!(type instanceof TupleTypeInfo<?> tuple)) {
            throw new InvalidProgramException("keyBy(int...) selects tuple fields by position, but the stream's type is "
                    + type + "; use a key selector (keyBy(value -> ...)) or field names for POJOs");
        }
        if (positions.length == 0) {
            throw new InvalidProgramException("keyBy(int...) needs at least one field position");
        }
        List<Step[]> paths = new ArrayList<>();
        List<TypeInformation<?>> types = new ArrayList<>();
        for (int position : positions) {
            if (position < 0 || position >= tuple.getArity()) {
                throw new InvalidProgramException("keyBy(" + position + "): " + type + " has fields 0 to "
                        + (tuple.getArity() - 1));
            }
            paths.add(new Step[] {Step.position(position)});
            types.add(tuple.getTypeAt(position));
        }
        return keyed(paths, types);
    }

    /** A selector of the fields named by {@code expressions}, with the key's type. */
    public static <T> Keyed<T> forExpressions(TypeInformation<T> type, String... expressions) {
        if (expressions.length == 0) {
            throw new InvalidProgramException("keyBy(String...) needs at least one field expression");
        }
        List<Step[]> paths = new ArrayList<>();
        List<TypeInformation<?>> types = new ArrayList<>();
        for (String expression : expressions) {
            List<Step> path = new ArrayList<>();
            TypeInformation<?> current = type;
            for (String part : expression.split("\\.", -1)) {
                Step step = step(current, part, expression, type);
                path.add(step);
                current = step.type;
            }
            paths.add(path.toArray(new Step[0]));
            types.add(current);
        }
        return keyed(paths, types);
    }

    private static Step step(TypeInformation<?> type, String part, String expression, TypeInformation<?> root) {
        if (type instanceof TupleTypeInfo<?> tuple) {
            int position = tuplePosition(part, tuple.getArity());
            if (position < 0) {
                throw new InvalidProgramException("Field expression '" + expression + "' on " + root + ": '" + part
                        + "' is not a field of " + type + " (its fields are f0 to f" + (tuple.getArity() - 1) + ")");
            }
            Step step = Step.position(position);
            step.type = tuple.getTypeAt(position);
            return step;
        }
        if (type instanceof PojoTypeInfo<?> pojo) {
            int index = pojo.getFieldIndex(part);
            if (index < 0) {
                throw new InvalidProgramException("Field expression '" + expression + "' on " + root + ": "
                        + type.getTypeClass().getName() + " has no field '" + part + "'; its fields are "
                        + String.join(", ", pojo.getFieldNames()));
            }
            PojoField field = pojo.getPojoFieldAt(index);
            Step step = Step.field(field.getField());
            step.type = field.getTypeInformation();
            return step;
        }
        throw new InvalidProgramException("Field expression '" + expression + "' on " + root + ": " + type
                + " is neither a tuple nor a POJO, so '" + part + "' cannot select a field of it; use a key selector"
                + " (keyBy(value -> ...))");
    }

    private static int tuplePosition(String part, int arity) {
        String digits = part.startsWith("f") ? part.substring(1) : part;
        try {
            int position = Integer.parseInt(digits);
            return position >= 0 && position < arity ? position : -1;
        } catch (NumberFormatException e) {
            return -1;
        }
    }

    @SuppressWarnings({"unchecked", "rawtypes"})
    private static <T> Keyed<T> keyed(List<Step[]> paths, List<TypeInformation<?>> types) {
        TupleTypeInfo<Tuple> keyType = new TupleTypeInfo(types.toArray(new TypeInformation<?>[0]));
        return new Keyed<>(new FieldsKeySelector<>(paths.toArray(new Step[0][])), keyType);
    }

    /** A selector and the type of the keys it returns. */
    public record Keyed<T>(KeySelector<T, Tuple> selector, TypeInformation<Tuple> keyType) {}

    /** One step of a field path: a tuple position or a (POJO) field. */
    private static final class Step implements Serializable {
        private static final long serialVersionUID = 1L;

        final int position;
        final Class<?> declaringClass;
        final String fieldName;
        transient Field field;
        transient TypeInformation<?> type;

        private Step(int position, Field field) {
            this.position = position;
            this.field = field;
            this.declaringClass = field == null ? null : field.getDeclaringClass();
            this.fieldName = field == null ? null : field.getName();
            if (field != null) {
                field.setAccessible(true);
            }
        }

        static Step position(int position) {
            return new Step(position, null);
        }

        static Step field(Field field) {
            return new Step(-1, field);
        }

        Object apply(Object value) throws IllegalAccessException {
            if (value == null) {
                return null;
            }
            return field == null ? ((Tuple) value).getField(position) : field.get(value);
        }

        private void readObject(ObjectInputStream in) throws IOException, ClassNotFoundException {
            in.defaultReadObject();
            if (declaringClass != null) {
                try {
                    field = declaringClass.getDeclaredField(fieldName);
                    field.setAccessible(true);
                } catch (NoSuchFieldException e) {
                    throw new IOException("field " + fieldName + " of " + declaringClass.getName() + " is gone", e);
                }
            }
        }
    }

    /** Reads the key fields of each record into a new tuple (keys are kept by the state backend, so not reused). */
    private static final class FieldsKeySelector<T> implements KeySelector<T, Tuple> {
        private static final long serialVersionUID = 1L;

        private final Step[][] paths;

        FieldsKeySelector(Step[][] paths) {
            this.paths = paths;
        }

        @Override
        public Tuple getKey(T value) throws Exception {
            Tuple key = Tuple.newInstance(paths.length);
            for (int i = 0; i < paths.length; i++) {
                Object current = value;
                for (Step step : paths[i]) {
                    current = step.apply(current);
                }
                key.setField(current, i);
            }
            return key;
        }
    }
}
