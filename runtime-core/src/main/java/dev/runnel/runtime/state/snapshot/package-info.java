/**
 * Where written state bytes live: {@link dev.runnel.runtime.state.snapshot.ByteStreamStateHandle}
 * (in memory) and {@link dev.runnel.runtime.state.snapshot.FileStateHandle} (a file), both
 * {@link dev.runnel.runtime.state.StreamStateHandle}s. A keyed snapshot in Runnel's backend-independent
 * format is one of them wrapped in a {@link dev.runnel.runtime.state.KeyGroupsStateHandle} with its
 * {@link dev.runnel.runtime.state.KeyGroupRangeOffsets}.
 *
 * <p>Both kinds can be recorded in a checkpoint's {@code _metadata}
 * ({@link dev.runnel.runtime.checkpoint.metadata.MetadataSerializer}): an in-memory handle with its name and
 * bytes (state at most {@code state.storage.fs.memory-threshold} long lives only there), a file handle with
 * its path and size, relative to the checkpoint's folder when the file is inside it, absolute otherwise.
 * Both compare by value, so a handle loaded again from the metadata equals the one that was written, which
 * the shared state registry relies on. On disk they are laid out by
 * {@code dev.runnel.runtime.state.storage} ({@code chk-N/}, {@code shared/}, {@code taskowned/}, savepoint
 * folders).
 *
 * <p>Only the stores read and write the keyed snapshot format, so its encoder and decoder live with them,
 * in runtime-state ({@code dev.runnel.runtime.state.snapshot.format}); the engine sees a snapshot only as
 * a handle.
 */
package dev.runnel.runtime.state.snapshot;
