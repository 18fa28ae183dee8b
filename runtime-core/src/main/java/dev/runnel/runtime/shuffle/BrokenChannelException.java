package dev.runnel.runtime.shuffle;

/**
 * A channel between two tasks can no longer deliver because its connection or the task at its other end is
 * gone. It is usually a symptom: the job's failure handling prefers a failure that explains it (the lost
 * TaskManager, the operator's error at the other end) as an attempt's cause, and keeps this one beside it.
 * Shuffle implementations subclass it; the message names the channel and the other end.
 */
public class BrokenChannelException extends RuntimeException {

    private static final long serialVersionUID = 1L;

    public BrokenChannelException(String message) {
        super(message);
    }
}
