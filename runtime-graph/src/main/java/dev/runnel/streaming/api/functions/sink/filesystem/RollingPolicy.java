package dev.runnel.connector.file.sink;

import java.io.Serializable;

/**
 * Decides when a {@link FileSink} writer closes its in-progress part file and makes it final
 * ("rolls" it); the next record starts a new part. Serializable configuration, shipped with the sink;
 * called on the writer's task thread, before each record is written.
 *
 * <p>Unlike Flink's, there is no roll-on-checkpoint decision (the end of input always rolls) and no
 * bucket id (the sink writes one bucket).
 *
 * @param <IN> the record type
 */
public interface RollingPolicy<IN> extends Serializable {

    /** Whether to roll {@code partFile} before writing {@code element} (not null) into it. */
    boolean shouldRollOnEvent(PartFileInfo partFile, IN element);

    /**
     * Whether to roll {@code partFile} at processing time {@code currentTime} (epoch milliseconds). The
     * writer asks before each record and at each non-final flush; it has no timer of its own.
     */
    boolean shouldRollOnProcessingTime(PartFileInfo partFile, long currentTime);
}
