package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.LocalDateSerializer;
import dev.runnel.api.common.typeutils.base.LocalDateTimeSerializer;
import dev.runnel.api.common.typeutils.base.LocalTimeSerializer;
import java.time.LocalDate;
import java.time.LocalDateTime;
import java.time.LocalTime;

/**
 * Type information of the {@code java.time} local types {@code LocalDate}, {@code LocalTime} and
 * {@code LocalDateTime}, each with its dedicated serializer, as in Flink ({@code Instant} is a
 * {@link BasicTypeInfo}). Not basic types, but key types: their {@code hashCode} is value-based.
 * Immutable singletons, one per class ({@link #getInfoFor(Class)}).
 *
 * @param <T> the described type
 */
public final class LocalTimeTypeInfo<T> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    public static final LocalTimeTypeInfo<LocalDate> LOCAL_DATE =
            new LocalTimeTypeInfo<>(LocalDate.class, LocalDateSerializer.INSTANCE);
    public static final LocalTimeTypeInfo<LocalTime> LOCAL_TIME =
            new LocalTimeTypeInfo<>(LocalTime.class, LocalTimeSerializer.INSTANCE);
    public static final LocalTimeTypeInfo<LocalDateTime> LOCAL_DATE_TIME =
            new LocalTimeTypeInfo<>(LocalDateTime.class, LocalDateTimeSerializer.INSTANCE);

    private final Class<T> clazz;
    private final TypeSerializer<T> serializer;

    private LocalTimeTypeInfo(Class<T> clazz, TypeSerializer<T> serializer) {
        this.clazz = clazz;
        this.serializer = serializer;
    }

    /** The information for {@code type}, or null if it is not one of the three local time classes. */
    @SuppressWarnings("unchecked")
    public static <X> LocalTimeTypeInfo<X> getInfoFor(Class<X> type) {
        if (type == LocalDate.class) {
            return (LocalTimeTypeInfo<X>) LOCAL_DATE;
        }
        if (type == LocalTime.class) {
            return (LocalTimeTypeInfo<X>) LOCAL_TIME;
        }
        if (type == LocalDateTime.class) {
            return (LocalTimeTypeInfo<X>) LOCAL_DATE_TIME;
        }
        return null;
    }

    @Override
    public boolean isBasicType() {
        return false;
    }

    @Override
    public boolean isTupleType() {
        return false;
    }

    @Override
    public int getArity() {
        return 1;
    }

    @Override
    public Class<T> getTypeClass() {
        return clazz;
    }

    @Override
    public boolean isKeyType() {
        return true;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return serializer;
    }

    private Object readResolve() {
        return getInfoFor(clazz);
    }

    @Override
    public String toString() {
        return clazz.getSimpleName();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof LocalTimeTypeInfo<?> other && clazz == other.clazz;
    }

    @Override
    public int hashCode() {
        return clazz.getName().hashCode();
    }
}
