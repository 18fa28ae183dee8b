/**
 * Checkpoint storage on a (local) file system: {@link dev.runnel.runtime.state.storage.FileSystemCheckpointStorage}
 * and what it makes for a job.
 *
 * <pre>
 * state.checkpoints.dir/
 *   &lt;job id&gt;/
 *     chk-12/            exclusive state of checkpoint 12 (one file per blob, UUID names), and _metadata,
 *       _metadata        written last: to _metadata.inprogress-&lt;uuid&gt;, forced, renamed atomically
 *     shared/            blobs later checkpoints may refer to (incremental SST files); deleted by the
 *                        shared state registry when the last retained checkpoint using one is dropped
 *     taskowned/         state the tasks own
 * state.savepoints.dir/ (or the target directory given)
 *   savepoint-a1b2c3-0f9e8d7c6b5a/   every file of the savepoint, and its _metadata: self-contained
 * </pre>
 *
 * <p>Blobs up to {@code state.storage.fs.memory-threshold} bytes never become files; they are kept inline in
 * the {@code _metadata}. A checkpoint without {@code _metadata} did not complete and is ignored by
 * {@code findCompletedCheckpoints()}.
 */
package dev.runnel.runtime.state.storage;
