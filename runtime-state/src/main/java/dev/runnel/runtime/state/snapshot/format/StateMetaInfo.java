package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.api.common.typeutils.TypeSerializer;
import java.util.Objects;

/**
 * What a keyed-state snapshot records about one state: its name, kind and the identities of the
 * serializers its entries were written with (see {@link SerializerIdentity}). Written in the
 * snapshot header and compared on restore, so a state is never decoded with serializers other than
 * the ones that wrote it.
 *
 * <p>Both stores must build the metadata of a state the same way, so that their snapshots restore
 * into each other: use {@link #forKeyedState} and {@link #forPriorityQueue}. For keyed state the value
 * serializer is the descriptor's {@link StateDescriptor#getSerializer()} as the store keeps it (the
 * list serializer for list state, the map serializer for map state; with time-to-live, the descriptor
 * whose serializer wraps values with their timestamp). A priority queue has no namespace; its
 * namespace identity is the empty string and its value identity is the element serializer's.
 *
 * <p>Immutable; safe from any thread.
 *
 * @param name the state's name, unique within one backend
 * @param kind how the state's entries are laid out
 * @param keySerializer identity of the backend's key serializer
 * @param namespaceSerializer identity of the namespace serializer ({@code ""} for a priority queue)
 * @param valueSerializer identity of the stored-value (or queue element) serializer
 */
public record StateMetaInfo(
        String name, StateKind kind, String keySerializer, String namespaceSerializer, String valueSerializer) {

    public StateMetaInfo {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(kind, "kind");
        Objects.requireNonNull(keySerializer, "keySerializer");
        Objects.requireNonNull(namespaceSerializer, "namespaceSerializer");
        Objects.requireNonNull(valueSerializer, "valueSerializer");
    }

    /** The metadata of the keyed state {@code descriptor} (its serializer must be initialized). */
    public static StateMetaInfo forKeyedState(
            TypeSerializer<?> keySerializer, TypeSerializer<?> namespaceSerializer, StateDescriptor<?, ?> descriptor) {
        return new StateMetaInfo(descriptor.getName(), StateKind.of(descriptor.getType()),
                SerializerIdentity.of(keySerializer), SerializerIdentity.of(namespaceSerializer),
                SerializerIdentity.of(descriptor.getSerializer()));
    }

    /** The metadata of the priority queue {@code name} whose elements {@code elementSerializer} writes. */
    public static StateMetaInfo forPriorityQueue(
            String name, TypeSerializer<?> keySerializer, TypeSerializer<?> elementSerializer) {
        return new StateMetaInfo(name, StateKind.PRIORITY_QUEUE, SerializerIdentity.of(keySerializer), "",
                SerializerIdentity.of(elementSerializer));
    }

    /**
     * Checks that a state registered as {@code this} can read entries a snapshot wrote as
     * {@code restored}: same kind and same serializer identities.
     *
     * @param snapshotDescription names where {@code restored} came from, for the message
     * @throws IllegalStateException naming the state, both sides and what differs
     */
    public void checkCanRestore(StateMetaInfo restored, String snapshotDescription) {
        if (!name.equals(restored.name)) {
            throw new IllegalArgumentException("cannot compare state '" + name + "' with state '" + restored.name + "'");
        }
        String what = null;
        if (kind != restored.kind) {
            what = "kind " + restored.kind + " in the snapshot, " + kind + " now";
        } else if (!keySerializer.equals(restored.keySerializer)) {
            what = "key serializer " + restored.keySerializer + " in the snapshot, " + keySerializer + " now";
        } else if (!namespaceSerializer.equals(restored.namespaceSerializer)) {
            what = "namespace serializer " + restored.namespaceSerializer + " in the snapshot, "
                    + namespaceSerializer + " now";
        } else if (!valueSerializer.equals(restored.valueSerializer)) {
            what = (kind == StateKind.PRIORITY_QUEUE ? "element" : "value") + " serializer "
                    + restored.valueSerializer + " in the snapshot, " + valueSerializer + " now";
        }
        if (what != null) {
            throw new IllegalStateException("State '" + name + "' cannot be restored from " + snapshotDescription
                    + ": it was written with a different type (" + what + "). Register the state with the type"
                    + " it had when the snapshot was taken, or give the changed state a new name.");
        }
    }
}
