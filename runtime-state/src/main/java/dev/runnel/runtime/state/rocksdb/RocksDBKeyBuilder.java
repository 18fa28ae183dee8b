package dev.runnel.runtime.state.rocksdb;

import dev.runnel.api.common.typeutils.TypeSerializer;
import dev.runnel.core.memory.DataOutputSerializer;
import java.io.IOException;

/**
 * Builds RocksDB keys for the current key in one reused buffer, so state access allocates no key
 * arrays.
 *
 * <pre>
 *   ┌──────────────┬─────────────────┬──────────────────────┬──────────────────────┐
 *   │ key group    │ key             │ namespace            │ user key (map only)  │
 *   │ 2 bytes, BE  │ key serializer  │ namespace serializer │ map key serializer   │
 *   └──────────────┴─────────────────┴──────────────────────┴──────────────────────┘
 *   VoidNamespace serializes to nothing, so key-only state pays nothing for it.
 * </pre>
 *
 * The key-group prefix makes each key group one contiguous, ordered span of every column family
 * (snapshots seek to it). Serializers write self-delimiting bytes, so no two (key, namespace) pairs
 * produce keys where one is a prefix of the other, and a map's entries form one contiguous span.
 *
 * <p>The key is serialized once per {@link #setCurrentKey} (on first use) and kept; each state access
 * rewrites only the namespace (and user key) behind it. The buffer returned by {@link #buffer()} is
 * valid until the next build call. Task thread only.
 */
public final class RocksDBKeyBuilder<K> {

    /** Bytes of the key-group prefix. */
    public static final int KEY_GROUP_PREFIX_BYTES = 2;

    private final TypeSerializer<K> keySerializer;
    private final DataOutputSerializer out = new DataOutputSerializer(128);
    private K currentKey;
    private int currentKeyGroup = -1;
    /** End of the serialized key in {@link #out}, or -1 when the current key is not serialized yet. */
    private int keyEnd = -1;
    private int namespaceEnd = -1;

    public RocksDBKeyBuilder(TypeSerializer<K> keySerializer) {
        this.keySerializer = keySerializer;
    }

    public void setCurrentKey(K key, int keyGroup) {
        this.currentKey = key;
        this.currentKeyGroup = keyGroup;
        this.keyEnd = -1;
        this.namespaceEnd = -1;
    }

    public K currentKey() {
        return currentKey;
    }

    public int currentKeyGroup() {
        return currentKeyGroup;
    }

    /** Writes key group, key and {@code namespace}; returns the key's length in {@link #buffer()}. */
    public <N> int buildNamespaceKey(N namespace, TypeSerializer<N> namespaceSerializer) throws IOException {
        if (keyEnd < 0) {
            serializeKey();
        }
        out.setPosition(keyEnd);
        namespaceSerializer.serialize(namespace, out);
        namespaceEnd = out.length();
        return namespaceEnd;
    }

    /**
     * Writes key group, key, {@code namespace} and {@code userKey}; returns the key's length. The
     * namespace part ends at {@link #namespaceEnd()}.
     */
    public <N, UK> int buildUserKey(N namespace, TypeSerializer<N> namespaceSerializer,
            UK userKey, TypeSerializer<UK> userKeySerializer) throws IOException {
        buildNamespaceKey(namespace, namespaceSerializer);
        userKeySerializer.serialize(userKey, out);
        return out.length();
    }

    /** Where the namespace ends in the key last built. */
    public int namespaceEnd() {
        return namespaceEnd;
    }

    /** The reused buffer holding the key last built; valid until the next build. */
    public byte[] buffer() {
        return out.getSharedBuffer();
    }

    private void serializeKey() throws IOException {
        if (currentKey == null) {
            throw new IllegalStateException("No current key is set: keyed state can only be used while a "
                    + "record or timer of a keyed stream is processed (after keyBy), with the backend's current key set.");
        }
        out.clear();
        writeKeyGroup(out, currentKeyGroup);
        keySerializer.serialize(currentKey, out);
        keyEnd = out.length();
    }

    /** Writes the 2-byte big-endian key-group prefix. */
    public static void writeKeyGroup(DataOutputSerializer target, int keyGroup) {
        target.writeShort(keyGroup);
    }

    /** The 2-byte prefix of {@code keyGroup} as a new array, e.g. to seek to the key group. */
    public static byte[] keyGroupPrefix(int keyGroup) {
        return new byte[] {(byte) (keyGroup >>> 8), (byte) keyGroup};
    }

    /** Reads the key group of a RocksDB key. */
    public static int readKeyGroup(byte[] key) {
        return ((key[0] & 0xFF) << 8) | (key[1] & 0xFF);
    }
}
