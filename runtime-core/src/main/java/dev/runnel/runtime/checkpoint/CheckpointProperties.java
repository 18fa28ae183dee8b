package dev.runnel.runtime.checkpoint;

import dev.runnel.core.execution.SavepointFormatType;
import java.io.Serializable;

/**
 * What a completed checkpoint is: a periodic checkpoint (retained by count, deleted when subsumed, and on
 * job end unless externalized retention says otherwise) or a savepoint (owned by the user, never deleted by
 * Runnel), and a savepoint's format.
 */
public record CheckpointProperties(boolean savepoint, SavepointFormatType savepointFormat) implements Serializable {

    public static final CheckpointProperties CHECKPOINT = new CheckpointProperties(false, null);

    public static CheckpointProperties savepoint(SavepointFormatType format) {
        return new CheckpointProperties(true, format);
    }
}
