package dev.runnel.streaming.runtime.source;

/**
 * What a source reader's operator calls on its source's coordinator: in this JVM the {@link SourceCoordinator}
 * itself, on a TaskManager of a cluster a proxy that forwards the calls to the JobManager, which runs the
 * coordinator. Thread-safe; calls are handled in the order they are made.
 */
public interface SourceCoordinatorGateway {

    /** Reader {@code subtask} is ready to receive splits through {@code gateway}. */
    void registerReader(int subtask, SourceReaderGateway<?> gateway);

    /** Reader {@code subtask} asks for a split. */
    void requestSplit(int subtask);
}
