package dev.runnel.runtime.state.snapshot.format;

import dev.runnel.api.common.state.StateDescriptor;
import dev.runnel.core.memory.CorruptDataException;

/**
 * The kind of a state in a keyed-state snapshot, with the kind byte the snapshot format stores for it
 * (see the {@linkplain dev.runnel.runtime.state.snapshot.format package documentation}). The kind decides how
 * the entries of a state's sections are laid out.
 *
 * <p>Immutable; safe from any thread.
 */
public enum StateKind {
    VALUE(0),
    LIST(1),
    REDUCING(2),
    AGGREGATING(3),
    MAP(4),
    /** A key-grouped priority queue, such as a timer queue. */
    PRIORITY_QUEUE(5);

    private static final StateKind[] BY_CODE = values();

    private final int code;

    StateKind(int code) {
        this.code = code;
    }

    /** The byte stored in a snapshot's state metadata for this kind. */
    public int code() {
        return code;
    }

    /** The kind stored as {@code code}; fails with {@link CorruptDataException} for an unknown byte. */
    public static StateKind fromCode(int code) throws CorruptDataException {
        if (code < 0 || code >= BY_CODE.length) {
            throw new CorruptDataException("unknown state kind byte " + code + " (known: 0 to "
                    + (BY_CODE.length - 1) + ")");
        }
        return BY_CODE[code];
    }

    /** The kind of keyed state a descriptor of type {@code type} describes. */
    public static StateKind of(StateDescriptor.Type type) {
        return switch (type) {
            case VALUE -> VALUE;
            case LIST -> LIST;
            case REDUCING -> REDUCING;
            case AGGREGATING -> AGGREGATING;
            case MAP -> MAP;
        };
    }

    /** True for the kinds whose entries are {@code bytes(keyAndNamespace) bytes(value)}. */
    public boolean hasSingleValue() {
        return this == VALUE || this == REDUCING || this == AGGREGATING;
    }
}
