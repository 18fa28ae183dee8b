package dev.runnel.api.java.typeutils;

import dev.runnel.api.common.functions.InvalidTypesException;
import dev.runnel.api.common.serialization.SerializerConfig;
import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.java.typeutils.runtime.RecordSerializer;
import dev.runnel.util.Preconditions;
import java.lang.reflect.RecordComponent;
import java.util.Arrays;

/**
 * Type information of a Java record with the types of its components, serialized component by
 * component ({@link RecordSerializer}; reference components may be null). A record is a key type if
 * all its components are (records derive {@code equals}/{@code hashCode} from them). Immutable.
 *
 * @param <T> the record type
 */
public final class RecordTypeInfo<T extends Record> extends TypeInformation<T> {

    private static final long serialVersionUID = 1L;

    private final Class<T> recordClass;
    private final TypeInformation<?>[] componentTypes;

    /** A record class and the types of its components, in declaration order. */
    public RecordTypeInfo(Class<T> recordClass, TypeInformation<?>... componentTypes) {
        this.recordClass = Preconditions.checkNotNull(recordClass, "the record class must not be null");
        Preconditions.checkArgument(recordClass.isRecord(), "%s is not a record class", recordClass.getName());
        Preconditions.checkNotNull(componentTypes, "the component types must not be null");
        int expected = recordClass.getRecordComponents().length;
        Preconditions.checkArgument(componentTypes.length == expected, "record %s has %s components but %s types were given",
                recordClass.getName(), expected, componentTypes.length);
        this.componentTypes = componentTypes.clone();
    }

    /** The type of component {@code pos}, in declaration order. */
    @SuppressWarnings("unchecked")
    public <X> TypeInformation<X> getTypeAt(int pos) {
        Preconditions.checkArgument(pos >= 0 && pos < componentTypes.length, "component %s does not exist in %s", pos, this);
        return (TypeInformation<X>) componentTypes[pos];
    }

    /** The component names, in declaration order. */
    public String[] getComponentNames() {
        return Arrays.stream(recordClass.getRecordComponents()).map(RecordComponent::getName).toArray(String[]::new);
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
        return componentTypes.length;
    }

    @Override
    public Class<T> getTypeClass() {
        return recordClass;
    }

    @Override
    public boolean isKeyType() {
        for (TypeInformation<?> type : componentTypes) {
            if (!type.isKeyType()) {
                return false;
            }
        }
        return true;
    }

    @Override
    public TypeSerializer<T> createSerializer(SerializerConfig config) {
        TypeSerializer<?>[] serializers = new TypeSerializer<?>[componentTypes.length];
        for (int i = 0; i < componentTypes.length; i++) {
            try {
                serializers[i] = componentTypes[i].createSerializer(config);
            } catch (InvalidTypesException e) {
                throw new InvalidTypesException(String.format("component %s of record %s: %s",
                        recordClass.getRecordComponents()[i].getName(), recordClass.getSimpleName(), e.getMessage()), e);
            }
        }
        return new RecordSerializer<>(recordClass, serializers);
    }

    @Override
    public String toString() {
        String[] names = getComponentNames();
        StringBuilder sb = new StringBuilder(recordClass.getSimpleName()).append('(');
        for (int i = 0; i < names.length; i++) {
            sb.append(i == 0 ? "" : ", ").append(names[i]).append(": ").append(componentTypes[i]);
        }
        return sb.append(')').toString();
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof RecordTypeInfo<?> other && recordClass == other.recordClass
                && Arrays.equals(componentTypes, other.componentTypes);
    }

    @Override
    public int hashCode() {
        return 31 * recordClass.getName().hashCode() + Arrays.hashCode(componentTypes);
    }
}
