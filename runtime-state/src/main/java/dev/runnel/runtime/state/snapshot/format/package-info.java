/**
 * Runnel's keyed-state snapshot format, shared by the heap and the RocksDB store so that either can
 * restore the other's snapshots, at any parallelism (by key group). Only the stores encode and decode
 * it; the engine holds written snapshots as {@link dev.runnel.runtime.state.KeyedStateHandle}s
 * ({@code dev.runnel.runtime.state.snapshot} in runtime-core), which this package reads from.
 *
 * <h2>Layout (version 1)</h2>
 * All integers are big-endian; {@code varint} is {@code DataOutputView#writeVarInt}; {@code bytes(x)}
 * is a varint length followed by that many bytes; strings are {@code bytes(UTF-8)}.
 * <pre>
 * snapshot      := header keyGroupBlock*           (one block per key group of the range, ascending)
 * header        := int MAGIC(0x524E4B53 "RNKS")  int VERSION(1)
 *                  varint stateCount  stateMeta*
 * stateMeta     := string name  byte kind  string keySerializer  string namespaceSerializer
 *                  string valueSerializer
 *                  (kind: 0 VALUE, 1 LIST, 2 REDUCING, 3 AGGREGATING, 4 MAP, 5 PRIORITY_QUEUE;
 *                   serializer strings identify the serializers, for a compatibility check on restore)
 * keyGroupBlock := int keyGroupId  varint sectionCount  section*
 * section       := varint stateIndex  varint entryCount  int byteLength  int crc32c  byte[byteLength]
 * </pre>
 * A section holds one state's entries of that key group; states without entries there have no
 * section. The CRC-32C covers the section bytes, so corruption is detected before decoding. The
 * {@link dev.runnel.runtime.state.KeyGroupRangeOffsets} returned with a snapshot give each block's
 * offset from the first byte of the snapshot.
 *
 * <h2>Entries</h2>
 * {@code keyAndNamespace} is the key serializer's bytes followed by the namespace serializer's
 * bytes, exactly as RocksDB keys hold them after their 2-byte key-group prefix.
 * <pre>
 * VALUE, REDUCING, AGGREGATING := bytes(keyAndNamespace)  bytes(value)
 * LIST                         := bytes(keyAndNamespace)  varint n  bytes(element){n}
 * MAP                          := bytes(keyAndNamespace)  varint n  (bytes(userKey) bool hasValue [bytes(userValue)]){n}
 * PRIORITY_QUEUE               := bytes(element)     (byte-ordered element serializer, e.g. timers)
 * </pre>
 * Every value is length-prefixed, so a store can take entries as raw bytes (RocksDB) or decode them
 * with the state's serializers once the operator registers the state (heap).
 */
package dev.runnel.runtime.state.snapshot.format;
