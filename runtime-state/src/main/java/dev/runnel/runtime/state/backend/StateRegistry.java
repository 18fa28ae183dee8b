package dev.runnel.runtime.state.backend;

import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.state.StateTtlConfig;
import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.runtime.state.snapshot.format.SerializerIdentity;
import java.util.HashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The keyed states and timer queues an operator registered with one backend in this run, by name,
 * with what they were registered with: the rule "one name is one state" that both stores enforce,
 * kept in one place so that they enforce it alike and fail with the same messages.
 *
 * <ul>
 *   <li>Asking again for a state with the same kind, serializers and time-to-live returns the object
 *       handed out the first time; any difference fails, naming the state and what differs.
 *   <li>A timer queue and a keyed state cannot share a name (both are snapshotted by name).
 *   <li>Asking again for a queue with the same element serializer returns the same queue.
 * </ul>
 * Restored state that is not registered yet is the stores' business (they check it against the
 * snapshot's metadata); this registry knows only what was registered in this run.
 *
 * <p>Task thread only. Holds the handed-out objects by reference; it never creates or closes them.
 * Names, serializers and descriptors must not be null.
 */
public final class StateRegistry {

    /** A registered keyed state: the object handed out and what it was registered with. */
    private record RegisteredState(Object state, StateDescriptor.Type type, TypeSerializer<?> namespaceSerializer,
            TypeSerializer<?> valueSerializer, StateTtlConfig ttlConfig) {}

    /** A registered timer queue and its element serializer. */
    private record RegisteredQueue(Object queue, TypeSerializer<?> elementSerializer) {}

    private final String operatorName;
    private final Map<String, RegisteredState> states = new HashMap<>();
    private final Map<String, RegisteredQueue> queues = new HashMap<>();

    /** @param operatorName names the operator in messages */
    public StateRegistry(String operatorName) {
        this.operatorName = Objects.requireNonNull(operatorName, "operatorName");
    }

    /**
     * The state registered under {@code descriptor}'s name (its serializer initialized), or null if
     * there is none yet.
     *
     * @throws IllegalStateException if it was registered with another kind, serializer or
     *     time-to-live, or a timer queue has that name
     */
    @SuppressWarnings("unchecked")
    public <S> S registeredState(TypeSerializer<?> namespaceSerializer, StateDescriptor<?, ?> descriptor) {
        String name = descriptor.getName();
        RegisteredState existing = states.get(name);
        if (existing == null) {
            if (queues.containsKey(name)) {
                throw new IllegalStateException("Operator '" + operatorName + "' cannot register keyed state '" + name
                        + "': a timer queue of that name exists. Give the state another name.");
            }
            return null;
        }
        String differs = difference(existing, namespaceSerializer, descriptor);
        if (differs != null) {
            throw new IllegalStateException("Operator '" + operatorName + "' registered state '" + name
                    + "' before with a different kind or type: " + differs + ". One name is one state; give the"
                    + " second state another name.");
        }
        return (S) existing.state();
    }

    /** Records {@code state} as the object of {@code descriptor}'s name, which must not be registered yet. */
    public void addState(TypeSerializer<?> namespaceSerializer, StateDescriptor<?, ?> descriptor, Object state) {
        RegisteredState added = new RegisteredState(Objects.requireNonNull(state, "state"), descriptor.getType(),
                namespaceSerializer, descriptor.getSerializer(), descriptor.getTtlConfig());
        if (states.putIfAbsent(descriptor.getName(), added) != null) {
            throw new IllegalStateException("state '" + descriptor.getName() + "' is registered already");
        }
    }

    /**
     * The queue registered as {@code name}, or null if there is none yet.
     *
     * @throws IllegalStateException if it was registered with another element serializer, or a keyed
     *     state has that name
     */
    @SuppressWarnings("unchecked")
    public <Q> Q registeredQueue(String name, TypeSerializer<?> elementSerializer) {
        RegisteredQueue existing = queues.get(name);
        if (existing == null) {
            if (states.containsKey(name)) {
                throw new IllegalStateException("Operator '" + operatorName + "' cannot create timer queue '" + name
                        + "': a keyed state of that name exists. Give the queue another name.");
            }
            return null;
        }
        if (!existing.elementSerializer().equals(elementSerializer)) {
            throw new IllegalStateException("Operator '" + operatorName + "' created queue '" + name
                    + "' before with element serializer " + SerializerIdentity.of(existing.elementSerializer())
                    + ", now with " + SerializerIdentity.of(elementSerializer)
                    + ". One name is one queue; give the second another name.");
        }
        return (Q) existing.queue();
    }

    /** Records {@code queue} as the queue {@code name}, which must not be registered yet. */
    public void addQueue(String name, TypeSerializer<?> elementSerializer, Object queue) {
        RegisteredQueue added = new RegisteredQueue(Objects.requireNonNull(queue, "queue"), elementSerializer);
        if (queues.putIfAbsent(name, added) != null) {
            throw new IllegalStateException("queue '" + name + "' is registered already");
        }
    }

    /** Forgets everything (when the backend closes). */
    public void clear() {
        states.clear();
        queues.clear();
    }

    /** What differs between {@code existing} and the request, for the message; null when nothing does. */
    private static String difference(RegisteredState existing, TypeSerializer<?> namespaceSerializer,
            StateDescriptor<?, ?> descriptor) {
        if (existing.type() != descriptor.getType()) {
            return "it is " + existing.type() + " state, requested as " + descriptor.getType();
        }
        if (!existing.valueSerializer().equals(descriptor.getSerializer())) {
            return "its value serializer is " + SerializerIdentity.of(existing.valueSerializer())
                    + ", requested with " + SerializerIdentity.of(descriptor.getSerializer());
        }
        if (!existing.namespaceSerializer().equals(namespaceSerializer)) {
            return "its namespace serializer is " + SerializerIdentity.of(existing.namespaceSerializer())
                    + ", requested with " + SerializerIdentity.of(namespaceSerializer);
        }
        if (!sameTtl(existing.ttlConfig(), descriptor.getTtlConfig())) {
            return "its time-to-live is " + existing.ttlConfig() + ", requested with " + descriptor.getTtlConfig();
        }
        return null;
    }

    /** Whether two TTL configurations behave the same (StateTtlConfig has no equals). */
    private static boolean sameTtl(StateTtlConfig a, StateTtlConfig b) {
        return a.isEnabled() == b.isEnabled()
                && (!a.isEnabled() || (a.getUpdateType() == b.getUpdateType()
                        && a.getStateVisibility() == b.getStateVisibility()
                        && a.getTtl().equals(b.getTtl())));
    }
}
