/**
 * Where written keyed-state snapshots live: {@link dev.runnel.runtime.state.snapshot.ByteStreamStateHandle}
 * (in memory) and {@link dev.runnel.runtime.state.snapshot.FileStateHandle} (a file), both
 * {@link dev.runnel.runtime.state.KeyedStateHandle}s that the engine passes around and restores from.
 *
 * <p>The bytes they hold are Runnel's backend-independent snapshot format. Only the stores read and
 * write that format, so its encoder and decoder live with them, in runtime-state
 * ({@code dev.runnel.runtime.state.snapshot.format}); the engine sees a snapshot only as a handle and
 * its {@link dev.runnel.runtime.state.KeyGroupRangeOffsets}.
 */
package dev.runnel.runtime.state.snapshot;
