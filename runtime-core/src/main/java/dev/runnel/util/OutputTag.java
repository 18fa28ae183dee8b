package dev.runnel.util;

import dev.runnel.api.common.typeinfo.TypeInformation;
import dev.runnel.api.java.typeutils.TypeExtractor;
import java.io.Serializable;
import java.lang.reflect.ParameterizedType;
import java.lang.reflect.Type;
import java.util.Objects;

/**
 * Names a side output of an operator and the type of its records. Create it as an anonymous subclass
 * so the type argument survives erasure, or pass the type explicitly:
 *
 * <pre>{@code
 * OutputTag<String> late = new OutputTag<String>("late") {};
 * OutputTag<Event> rejected = new OutputTag<>("rejected", TypeInformation.of(Event.class));
 * }</pre>
 *
 * Two tags are the same side output when their ids are equal. Immutable.
 */
public class OutputTag<T> implements Serializable {

    private static final long serialVersionUID = 1L;

    private final String id;
    private final TypeInformation<T> typeInfo;

    @SuppressWarnings("unchecked")
    public OutputTag(String id) {
        this.id = checkId(id);
        Type superclass = getClass().getGenericSuperclass();
        if (!(superclass instanceof ParameterizedType parameterized)) {
            throw new IllegalArgumentException("OutputTag '" + id + "' has no type: create it as an anonymous class, "
                    + "new OutputTag<String>(\"" + id + "\") {}, or pass the type: new OutputTag<>(\"" + id
                    + "\", Types.STRING).");
        }
        this.typeInfo = (TypeInformation<T>) TypeExtractor.createTypeInfo(parameterized.getActualTypeArguments()[0]);
    }

    public OutputTag(String id, TypeInformation<T> typeInfo) {
        this.id = checkId(id);
        this.typeInfo = Objects.requireNonNull(typeInfo, () -> "type of OutputTag '" + id + "'");
    }

    private static String checkId(String id) {
        if (id == null || id.isBlank()) {
            throw new IllegalArgumentException("An OutputTag needs a non-blank id, got '" + id + "'");
        }
        return id;
    }

    /**
     * Serializes as a plain {@code OutputTag}: the anonymous subclass users create to capture the type
     * would otherwise drag its enclosing object along (and fail if that is not serializable).
     */
    protected Object writeReplace() {
        return getClass() == OutputTag.class ? this : new OutputTag<>(id, typeInfo);
    }

    public String getId() {
        return id;
    }

    public TypeInformation<T> getTypeInfo() {
        return typeInfo;
    }

    @Override
    public boolean equals(Object o) {
        return o instanceof OutputTag<?> other && id.equals(other.id);
    }

    @Override
    public int hashCode() {
        return id.hashCode();
    }

    @Override
    public String toString() {
        return "OutputTag(" + typeInfo + ", " + id + ")";
    }
}
