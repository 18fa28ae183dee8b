/**
 * Checkpoints as the coordinator and recovery see them: what a completed checkpoint holds
 * ({@link dev.runnel.runtime.checkpoint.CompletedCheckpoint}, per operator
 * {@link dev.runnel.runtime.checkpoint.OperatorState}, per subtask
 * {@link dev.runnel.runtime.checkpoint.OperatorSubtaskState}), where it is written
 * ({@link dev.runnel.runtime.checkpoint.CheckpointStorageAccess}, one
 * {@link dev.runnel.runtime.checkpoint.CheckpointStorageLocation} per checkpoint; on a file system
 * {@code dev.runnel.runtime.state.storage.FileSystemCheckpointStorage}), and which are kept
 * ({@link dev.runnel.runtime.checkpoint.DefaultCompletedCheckpointStore}).
 *
 * <h2>Completing a checkpoint</h2>
 * <ol>
 *   <li>{@code storage.initializeLocationForCheckpoint(n)} creates {@code chk-n/}; tasks write their state
 *       through it (exclusive files in {@code chk-n/}, shared ones in {@code shared/}, small blobs inline);
 *   <li>the coordinator builds the {@code CompletedCheckpoint} and calls
 *       {@code checkpoint.registerSharedStates(store.getSharedStateRegistry())}, which may swap a second
 *       upload of a shared file for the copy the registry keeps;
 *   <li>{@code location.writeMetadata(checkpoint)} writes {@code _metadata} atomically: from now on the
 *       checkpoint exists on disk;
 *   <li>{@code store.addCheckpointAndSubsumeOldestOne(checkpoint)} retains it and deletes what the oldest
 *       ones no longer share. On failure instead: {@code location.disposeOnFailure()}, which leaves no file.
 * </ol>
 *
 * <h2>The {@code _metadata} file</h2>
 * Runnel's own binary format, {@link dev.runnel.runtime.checkpoint.metadata.MetadataSerializer} (full
 * layout there): magic number {@code RNMD}, format version, body length; the body (job id, checkpoint id,
 * timestamps, checkpoint or savepoint and its format, then each operator with parallelism, max
 * parallelism, coordinator state and each subtask's keyed and operator state handles, every handle
 * preceded by a type tag); a CRC32 of all of it. Files in the checkpoint's own folder are stored relative
 * to it (a savepoint folder can move), others ({@code shared/}) absolutely.
 * {@link dev.runnel.runtime.checkpoint.Checkpoints#loadCheckpointMetadata} refuses a missing, truncated,
 * foreign, newer, damaged or dangling file with a message that names it and says what to do.
 */
package dev.runnel.runtime.checkpoint;
