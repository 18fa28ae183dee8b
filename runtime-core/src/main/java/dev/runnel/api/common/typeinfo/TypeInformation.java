package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.ExecutionConfig;
import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.TypeExtractor;
import java.io.Serializable;

/**
 * Describes the type of the records on a stream, or of a key or state value, and creates its
 * serializer. Every edge of a job graph carries one, resolved when the graph is built, so that type
 * problems (a missing Kryo registration, an erased lambda type) fail there and not at the first record.
 *
 * <p>Get one from {@link Types} (e.g. {@code Types.TUPLE(Types.STRING, Types.LONG)}), from
 * {@link #of(Class)} or {@link #of(TypeHint)}, or from {@link TypeExtractor}. Implementations are
 * immutable, thread-safe and {@link Serializable}; equal types are {@code equals}, and
 * {@code toString()} is readable, e.g. {@code Tuple2<String, Long>}.
 *
 * @param <T> the described type
 */
public abstract class TypeInformation<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    /**
     * True for the {@link BasicTypeInfo} types: the boxed primitives, {@code String}, {@code Date},
     * {@code BigInteger}, {@code BigDecimal}, {@code Instant} and {@code UUID}.
     */
    public abstract boolean isBasicType();

    /** True for {@code Tuple0..Tuple12} and their subclasses. */
    public abstract boolean isTupleType();

    /**
     * The number of fields of a composite type (a tuple's or record's fields); 1 for every other type
     * (basic types, arrays, lists, maps, generic types).
     */
    public abstract int getArity();

    /** The class of the described values (for a parameterized type, its raw class). */
    public abstract Class<T> getTypeClass();

    /**
     * Whether values can be keys for {@code keyBy}: their {@code hashCode} and {@code equals} are
     * value-based and stable across processes (so never for arrays, enums or identity-hashed classes).
     */
    public abstract boolean isKeyType();

    /**
     * A serializer for the values, configured by {@code config} (registrations for the Kryo fallback).
     *
     * @throws InvalidTypesException if the type cannot be serialized as configured, e.g. it would need
     *     Kryo while generic types are disabled, or Kryo would need unregistered classes
     */
    public abstract TypeSerializer<T> createSerializer(SerializerConfig config);

    /**
     * {@link #createSerializer(SerializerConfig)} with the serializer settings of {@code config}.
     *
     * @deprecated as in Flink 1.20: use {@link #createSerializer(SerializerConfig)}; kept because
     *     jobs pass {@code env.getConfig()} (Flink's TopSpeedWindowing does, for its DeltaTrigger)
     */
    @Deprecated
    public TypeSerializer<T> createSerializer(ExecutionConfig config) {
        return createSerializer(config.getSerializerConfig());
    }

    @Override
    public abstract String toString();

    @Override
    public abstract boolean equals(Object obj);

    @Override
    public abstract int hashCode();

    /**
     * The type information of a non-generic class, e.g. {@code TypeInformation.of(String.class)}.
     *
     * @throws InvalidTypesException if the class needs type arguments to be described (e.g. a raw
     *     {@code Tuple2}); use {@link #of(TypeHint)} for those
     */
    @SuppressWarnings("unchecked")
    public static <T> TypeInformation<T> of(Class<T> typeClass) {
        try {
            return (TypeInformation<T>) TypeExtractor.createTypeInfo(typeClass);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(String.format(
                    "cannot describe %s from its class alone: %s. Use TypeInformation.of(TypeHint) instead, e.g."
                            + " TypeInformation.of(new TypeHint<Tuple2<String, Long>>(){})",
                    typeClass.getName(), e.getMessage()), e);
        }
    }

    /** The type information captured by a type hint: {@code of(new TypeHint<Tuple2<String, Long>>(){})}. */
    public static <T> TypeInformation<T> of(TypeHint<T> typeHint) {
        return typeHint.getTypeInfo();
    }
}
