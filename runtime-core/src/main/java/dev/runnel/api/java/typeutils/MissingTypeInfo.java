package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.util.Preconditions;

/**
 * A placeholder for an output type that could not be extracted (usually erased by a lambda), kept so
 * that the user can still supply it, e.g. with {@code returns(...)}. Any use that needs the actual
 * type throws the original {@link InvalidTypesException}'s explanation, naming the function. Immutable.
 */
public final class MissingTypeInfo extends TypeInformation<InvalidTypesException> {

    private static final long serialVersionUID = 1L;

    private final String functionName;
    private final InvalidTypesException typeException;

    public MissingTypeInfo(String functionName, InvalidTypesException typeException) {
        this.functionName = Preconditions.checkNotNull(functionName, "the function name must not be null");
        this.typeException = Preconditions.checkNotNull(typeException, "the exception must not be null");
    }

    /** The function whose output type is missing. */
    public String getFunctionName() {
        return functionName;
    }

    /** Why extraction failed. */
    public InvalidTypesException getTypeException() {
        return typeException;
    }

    private InvalidTypesException unusable() {
        return new InvalidTypesException(String.format(
                "the output type of '%s' could not be determined: %s. Declare it explicitly, e.g. with"
                        + " returns(Types...) or returns(new TypeHint<...>(){}) on the resulting stream",
                functionName, typeException.getMessage()), typeException);
    }

    @Override
    public boolean isBasicType() {
        throw unusable();
    }

    @Override
    public boolean isTupleType() {
        throw unusable();
    }

    @Override
    public int getArity() {
        throw unusable();
    }

    @Override
    public Class<InvalidTypesException> getTypeClass() {
        throw unusable();
    }

    @Override
    public boolean isKeyType() {
        throw unusable();
    }

    @Override
    public TypeSerializer<InvalidTypesException> createSerializer(SerializerConfig config) {
        throw unusable();
    }

    @Override
    public String toString() {
        return "MissingTypeInfo(" + functionName + ")";
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof MissingTypeInfo other && functionName.equals(other.functionName)
                && String.valueOf(typeException.getMessage()).equals(String.valueOf(other.typeException.getMessage()));
    }

    @Override
    public int hashCode() {
        return functionName.hashCode();
    }
}
