package dev.runnel.runtime.state;

/** Which checkpoint is being taken, for operators and functions that snapshot their state. */
public interface ManagedSnapshotContext {

    long getCheckpointId();

    /** When the checkpoint was triggered (the coordinator's wall clock, ms). */
    long getCheckpointTimestamp();
}
