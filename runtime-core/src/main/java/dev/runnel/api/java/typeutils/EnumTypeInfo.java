package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.EnumSerializer;
import dev.runnel.util.Preconditions;

/**
 * Type information of an enum, serialized by constant index ({@link EnumSerializer}).
 *
 * <p>Not a key type, unlike Flink's: an enum's {@code hashCode} is its identity hash, which differs
 * between JVMs and between runs, so the key group of an enum key would not survive a restore or
 * agree across processes (Flink refuses enum keys in {@code keyBy} for the same reason). Key by
 * {@code e.name()} or {@code e.ordinal()} instead. Immutable.
 *
 * @param <T> the enum type
 */
public final class EnumTypeInfo<T extends Enum<T>> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> typeClass;

    public EnumTypeInfo(Class<T> typeClass) {
        this.typeClass = Preconditions.checkNotNull(typeClass, "the enum class must not be null");
        Preconditions.checkArgument(typeClass.isEnum(), "%s is not an enum class", typeClass.getName());
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
        return typeClass;
    }

    @Override
    public boolean isKeyType() {
        return false;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        return new EnumSerializer<>(typeClass);
    }

    @Override
    public String toString() {
        return "EnumTypeInfo<" + typeClass.getName() + ">";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof EnumTypeInfo<?> other && typeClass == other.typeClass;
    }

    @Override
    public int hashCode() {
        return 31 * EnumTypeInfo.class.getName().hashCode() + typeClass.getName().hashCode();
    }
}
