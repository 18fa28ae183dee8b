package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.api.common.typeutils.base.ListSerializer;
import dev.runnel.api.common.typeutils.base.MapSerializer;
import dev.runnel.runtime.timers.TimerSerializer;
import java.util.Objects;

/**
 * The identity string of a serializer, as the snapshot format stores it per state so that a restore
 * can tell whether the registering state reads the bytes the snapshot holds.
 *
 * <p>The identity is the serializer's class name, followed by {@code :} and its {@code toString()}
 * when the class overrides {@code toString()} (Runnel's composite serializers print their nested
 * serializers there, e.g. {@code TupleSerializer<Tuple2[LongSerializer, StringSerializer]>}). List,
 * map and timer serializers are composed from their parts' identities, so a nested user serializer
 * without a {@code toString()} still yields a stable string (its class name). A serializer whose
 * {@code toString()} prints an identity hash code would not be stable across processes; give such a
 * serializer a value-based {@code toString()}.
 *
 * <p>Stateless; safe from any thread. Not for the per-record path: it reflects on the class.
 */
public final class SerializerIdentity {

    private SerializerIdentity() {}

    /** The identity string of {@code serializer}, never null. */
    public static String of(TypeSerializer<?> serializer) {
        Objects.requireNonNull(serializer, "serializer");
        if (serializer instanceof ListSerializer<?> list) {
            return ListSerializer.class.getName() + "<" + of(list.getElementSerializer()) + ">";
        }
        if (serializer instanceof MapSerializer<?, ?> map) {
            return MapSerializer.class.getName() + "<" + of(map.getKeySerializer()) + ", "
                    + of(map.getValueSerializer()) + ">";
        }
        if (serializer instanceof TimerSerializer<?, ?> timer) {
            return TimerSerializer.class.getName() + "<" + of(timer.getKeySerializer()) + ", "
                    + of(timer.getNamespaceSerializer()) + ">";
        }
        String className = serializer.getClass().getName();
        return overridesToString(serializer.getClass()) ? className + ":" + serializer : className;
    }

    private static boolean overridesToString(Class<?> type) {
        try {
            return type.getMethod("toString").getDeclaringClass() != Object.class;
        } catch (NoSuchMethodException e) {
            throw new AssertionError("every class has toString()", e);
        }
    }
}
