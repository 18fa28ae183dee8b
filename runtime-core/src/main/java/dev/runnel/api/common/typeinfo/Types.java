package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.java.tuple.Tuple;
import dev.runnel.api.java.typeutils.EnumTypeInfo;
import dev.runnel.api.java.typeutils.GenericTypeInfo;
import dev.runnel.api.java.typeutils.ListTypeInfo;
import dev.runnel.api.java.typeutils.MapTypeInfo;
import dev.runnel.api.java.typeutils.ObjectArrayTypeInfo;
import dev.runnel.api.java.typeutils.PojoField;
import dev.runnel.api.java.typeutils.PojoTypeInfo;
import dev.runnel.api.java.typeutils.RecordTypeInfo;
import dev.runnel.api.java.typeutils.TupleTypeInfo;
import dev.runnel.api.java.typeutils.TypeExtractor;
import dev.runnel.util.Preconditions;
import java.lang.reflect.Array;
import java.lang.reflect.Field;
import java.math.BigDecimal;
import java.math.BigInteger;
import java.time.Instant;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Shortcuts for declaring types explicitly, as in Flink:
 * {@code Types.TUPLE(Types.STRING, Types.LIST(Types.LONG))}. Each returns immutable, shareable type
 * information.
 */
public final class Types {

    private Types() {}

    public static final TypeInformation<String> STRING = BasicTypeInfo.STRING_TYPE_INFO;
    public static final TypeInformation<Boolean> BOOLEAN = BasicTypeInfo.BOOLEAN_TYPE_INFO;
    public static final TypeInformation<Byte> BYTE = BasicTypeInfo.BYTE_TYPE_INFO;
    public static final TypeInformation<Short> SHORT = BasicTypeInfo.SHORT_TYPE_INFO;
    public static final TypeInformation<Integer> INT = BasicTypeInfo.INT_TYPE_INFO;
    public static final TypeInformation<Long> LONG = BasicTypeInfo.LONG_TYPE_INFO;
    public static final TypeInformation<Float> FLOAT = BasicTypeInfo.FLOAT_TYPE_INFO;
    public static final TypeInformation<Double> DOUBLE = BasicTypeInfo.DOUBLE_TYPE_INFO;
    public static final TypeInformation<Character> CHAR = BasicTypeInfo.CHAR_TYPE_INFO;
    public static final TypeInformation<BigDecimal> BIG_DEC = BasicTypeInfo.BIG_DEC_TYPE_INFO;
    public static final TypeInformation<BigInteger> BIG_INT = BasicTypeInfo.BIG_INT_TYPE_INFO;
    public static final TypeInformation<Instant> INSTANT = BasicTypeInfo.INSTANT_TYPE_INFO;
    public static final TypeInformation<LocalDate> LOCAL_DATE = LocalTimeTypeInfo.LOCAL_DATE;
    public static final TypeInformation<LocalTime> LOCAL_TIME = LocalTimeTypeInfo.LOCAL_TIME;
    public static final TypeInformation<LocalDateTime> LOCAL_DATE_TIME = LocalTimeTypeInfo.LOCAL_DATE_TIME;

    /** The primitive class of each boxed type, for {@link #PRIMITIVE_ARRAY}. */
    private static final Map<Class<?>, Class<?>> PRIMITIVES = Map.of(Boolean.class, boolean.class, Byte.class, byte.class,
            Short.class, short.class, Integer.class, int.class, Long.class, long.class, Float.class, float.class,
            Double.class, double.class, Character.class, char.class);

    /**
     * An array of a primitive type, given by the type of its elements: {@code PRIMITIVE_ARRAY(Types.INT)}
     * is {@code int[]}. Serialized without boxing.
     *
     * @throws IllegalArgumentException if the element type is not one of the eight primitive types
     */
    public static TypeInformation<?> PRIMITIVE_ARRAY(TypeInformation<?> elementType) {
        Preconditions.checkNotNull(elementType, "the element type must not be null");
        if (elementType instanceof BasicTypeInfo<?> basic) {
            Class<?> primitive = PRIMITIVES.get(basic.getTypeClass());
            if (primitive != null) {
                return PrimitiveArrayTypeInfo.getInfoFor(Array.newInstance(primitive, 0).getClass());
            }
        }
        throw new IllegalArgumentException(String.format(
                "%s is not a primitive element type; PRIMITIVE_ARRAY takes Types.BOOLEAN, BYTE, SHORT, INT, LONG,"
                        + " FLOAT, DOUBLE or CHAR. For arrays of other elements use Types.OBJECT_ARRAY(...)",
                elementType));
    }

    /**
     * An array of objects of the given element type, e.g. {@code OBJECT_ARRAY(Types.POJO(Order.class))}
     * for {@code Order[]}; {@code OBJECT_ARRAY(Types.STRING)} is {@code String[]}. Elements may be null.
     */
    @SuppressWarnings("unchecked")
    public static <E> TypeInformation<E[]> OBJECT_ARRAY(TypeInformation<E> elementType) {
        Preconditions.checkNotNull(elementType, "the element type must not be null");
        if (elementType == STRING) {
            return (TypeInformation<E[]>) (TypeInformation<?>) BasicArrayTypeInfo.STRING_ARRAY_TYPE_INFO;
        }
        return ObjectArrayTypeInfo.getInfoFor(elementType);
    }

    /** The tuple {@code Tuple<n>} of the given field types, in order. */
    public static <T extends Tuple> TypeInformation<T> TUPLE(TypeInformation<?>... types) {
        return new TupleTypeInfo<>(types);
    }

    /**
     * A tuple subclass that fixes its field types, e.g. {@code class WordCount extends Tuple2<String, Integer>}.
     *
     * @throws InvalidTypesException if the class leaves field types open
     */
    @SuppressWarnings("unchecked")
    public static <T extends Tuple> TypeInformation<T> TUPLE(Class<T> tupleSubclass) {
        TypeInformation<T> info = (TypeInformation<T>) TypeExtractor.createTypeInfo(tupleSubclass);
        if (!(info instanceof TupleTypeInfo)) {
            throw new InvalidTypesException(String.format("%s is not a tuple type", tupleSubclass.getName()));
        }
        return info;
    }

    /** {@code java.util.List} of the element type; read back as {@code ArrayList}. */
    public static <E> TypeInformation<List<E>> LIST(TypeInformation<E> elementType) {
        return new ListTypeInfo<>(elementType);
    }

    /** {@code java.util.Map} of the key and value types; read back as {@code HashMap}. Values may be null. */
    public static <K, V> TypeInformation<Map<K, V>> MAP(TypeInformation<K> keyType, TypeInformation<V> valueType) {
        return new MapTypeInfo<>(keyType, valueType);
    }

    /** An enum, serialized by constant index. Not a key type (enum hash codes differ between JVMs). */
    public static <E extends Enum<E>> TypeInformation<E> ENUM(Class<E> enumType) {
        return new EnumTypeInfo<>(Preconditions.checkNotNull(enumType, "the enum class must not be null"));
    }

    /** Any class, serialized with Kryo (which needs the class, and those it contains, registered). */
    public static <T> TypeInformation<T> GENERIC(Class<T> genericClass) {
        return new GenericTypeInfo<>(Preconditions.checkNotNull(genericClass, "the class must not be null"));
    }

    /**
     * A POJO, serialized field by field: {@code Types.POJO(Order.class)}. A record class gets its record
     * type information (records are Flink POJOs too).
     *
     * @throws InvalidTypesException if the class is not a POJO, saying which rule it breaks; use
     *     {@link #GENERIC(Class)} to serialize such a class with Kryo
     */
    @SuppressWarnings("unchecked")
    public static <T> TypeInformation<T> POJO(Class<T> pojoClass) {
        Preconditions.checkNotNull(pojoClass, "the class must not be null");
        TypeInformation<T> info = (TypeInformation<T>) TypeExtractor.createTypeInfo(pojoClass);
        if (info instanceof PojoTypeInfo || info instanceof RecordTypeInfo) {
            return info;
        }
        throw new InvalidTypesException(String.format(
                "POJO type expected, but %s is %s. Use Types.GENERIC(%s.class) to serialize it with Kryo (which needs"
                        + " it registered), or make it a POJO: a public class (static if nested) with a public"
                        + " no-argument constructor whose fields are public or have public getters and setters",
                pojoClass.getName(), TypeExtractor.notAPojoBecause(pojoClass, info), pojoClass.getSimpleName()));
    }

    /**
     * A POJO with explicitly given field types, by field name (fields not named are left out, as in
     * Flink).
     *
     * @throws InvalidTypesException if a name is not a field of the class or its superclasses
     */
    public static <T> TypeInformation<T> POJO(Class<T> pojoClass, Map<String, TypeInformation<?>> fields) {
        Preconditions.checkNotNull(pojoClass, "the class must not be null");
        Preconditions.checkNotNull(fields, "the fields must not be null");
        List<PojoField> pojoFields = new ArrayList<>(fields.size());
        List<Field> declared = TypeExtractor.getAllDeclaredFields(pojoClass, true);
        for (Map.Entry<String, TypeInformation<?>> entry : fields.entrySet()) {
            Field field = declared.stream().filter(f -> f.getName().equals(entry.getKey())).findFirst()
                    .orElseThrow(() -> new InvalidTypesException(String.format(
                            "%s has no non-static, non-transient field '%s'", pojoClass.getName(), entry.getKey())));
            pojoFields.add(new PojoField(field, entry.getValue()));
        }
        return new PojoTypeInfo<>(pojoClass, pojoFields);
    }
}
