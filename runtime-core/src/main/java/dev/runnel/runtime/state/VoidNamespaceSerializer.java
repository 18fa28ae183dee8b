package dev.runnel.runtime.state;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataInputView;
import dev.runnel.core.memory.DataOutputView;

/** Serializes {@link VoidNamespace} as zero bytes. Stateless singleton. */
public final class VoidNamespaceSerializer extends TypeSerializer<VoidNamespace> {

    private static final long serialVersionUID = 1L;

    public static final VoidNamespaceSerializer INSTANCE = new VoidNamespaceSerializer();

    private VoidNamespaceSerializer() {}

    @Override
    public boolean isImmutableType() {
        return true;
    }

    @Override
    public VoidNamespace createInstance() {
        return VoidNamespace.INSTANCE;
    }

    @Override
    public VoidNamespace copy(VoidNamespace from) {
        return VoidNamespace.INSTANCE;
    }

    @Override
    public int getLength() {
        return 0;
    }

    @Override
    public void serialize(VoidNamespace record, DataOutputView target) {
        // nothing to write: there is only one value
    }

    @Override
    public VoidNamespace deserialize(DataInputView source) {
        return VoidNamespace.INSTANCE;
    }

    @Override
    public boolean equals(Object obj) {
        return obj instanceof VoidNamespaceSerializer;
    }

    @Override
    public int hashCode() {
        return VoidNamespaceSerializer.class.hashCode();
    }

    private Object readResolve() {
        return INSTANCE;
    }
}
