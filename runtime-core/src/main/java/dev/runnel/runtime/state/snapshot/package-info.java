/**
 * Where written state bytes live: {@link dev.runnel.runtime.state.snapshot.ByteStreamStateHandle}
 * (in memory) and {@link dev.runnel.runtime.state.snapshot.FileStateHandle} (a file), both
 * {@link dev.runnel.runtime.state.StreamStateHandle}s. A keyed snapshot in Runnel's backend-independent
 * format is one of them wrapped in a {@link dev.runnel.runtime.state.KeyGroupsStateHandle} with its
 * {@link dev.runnel.runtime.state.KeyGroupRangeOffsets}.
 *
 * <p>Only the stores read and write the keyed snapshot format, so its encoder and decoder live with them,
 * in runtime-state ({@code dev.runnel.runtime.state.snapshot.format}); the engine sees a snapshot only as
 * a handle.
 */
package dev.runnel.runtime.state.snapshot;
