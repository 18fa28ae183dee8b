package dev.runnel.streaming.runtime.tasks;

import dev.runnel.core.io.InputStatus;

/**
 * Where a task's records come from: a source reader, or one or two network inputs. The task's
 * mailbox loop calls {@link #processInput()} between mails; each call does a bounded amount of work
 * (one batch, one source poll). Task thread only.
 */
interface TaskInput extends AutoCloseable {

    /** Processes what is available; END_OF_INPUT once every input has ended. */
    InputStatus processInput() throws Exception;

    /** Whether {@link #processInput()} would find something now (checked before parking). */
    boolean isAvailable();

    @Override
    void close();
}
