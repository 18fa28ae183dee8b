package dev.runnel.runtime.state;

/**
 * The namespace of state and timers that belong to a key only (not to a window). A singleton; its
 * serialized form is empty, so it costs nothing in RocksDB keys.
 */
public final class VoidNamespace {

    public static final VoidNamespace INSTANCE = new VoidNamespace();

    private VoidNamespace() {}

    public static VoidNamespace get() {
        return INSTANCE;
    }

    @Override
    public int hashCode() {
        return 99;
    }

    @Override
    public boolean equals(Object obj) {
        return obj == this;
    }

    @Override
    public String toString() {
        return "VoidNamespace";
    }
}
