package dev.runnel.core.io;

import java.io.IOException;

/**
 * Serializes objects to bytes tagged with a version, so that newer code can read older bytes
 * (source splits, enumerator checkpoints). Thread-safe.
 */
public interface SimpleVersionedSerializer<E> {

    int getVersion();

    byte[] serialize(E obj) throws IOException;

    /** Reads bytes written by a serializer of {@code version}; unknown versions fail clearly. */
    E deserialize(int version, byte[] serialized) throws IOException;
}
