package dev.runnel.api.common.typeinfo;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.java.typeutils.TypeExtractor;

/**
 * Captures a generic type that erasure would otherwise hide, by subclassing:
 * {@code new TypeHint<Tuple2<String, Long>>(){}}. The type is resolved in the constructor, so a hint
 * that cannot be described (e.g. one using a type variable {@code T}) fails where it is written.
 *
 * <p>Immutable once constructed. Not serializable: keep {@link #getTypeInfo()} instead.
 *
 * @param <T> the captured type
 */
public abstract class TypeHint<T> {

    private final TypeInformation<T> typeInfo;

    /**
     * Resolves the type argument of this anonymous subclass.
     *
     * @throws InvalidTypesException if the argument is or contains an unresolved type variable
     */
    @SuppressWarnings("unchecked")
    protected TypeHint() {
        try {
            this.typeInfo = (TypeInformation<T>) TypeExtractor.createTypeInfo(TypeHint.class, getClass(), 0);
        } catch (InvalidTypesException e) {
            throw new InvalidTypesException(String.format(
                    "the type hint %s cannot be resolved: %s. Create hints as anonymous subclasses naming a concrete"
                            + " type, without type variables, e.g. new TypeHint<Tuple2<String, Long>>(){}",
                    getClass().getName(), e.getMessage()), e);
        }
    }

    /** The captured type's information. */
    public TypeInformation<T> getTypeInfo() {
        return typeInfo;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof TypeHint<?> other && typeInfo.equals(other.typeInfo);
    }

    @Override
    public int hashCode() {
        return typeInfo.hashCode();
    }

    @Override
    public String toString() {
        return "TypeHint: " + typeInfo;
    }
}
