package dev.runnel.connector.testutils;

import dev.runnel.api.connector.source.SourceReaderContext;

/** A reader's context that counts split requests; the test answers them by hand. */
public final class TestingReaderContext implements SourceReaderContext {

    private final int subtask;
    private final int parallelism;
    private int splitRequests;

    public TestingReaderContext(int subtask, int parallelism) {
        this.subtask = subtask;
        this.parallelism = parallelism;
    }

    @Override
    public int getIndexOfSubtask() {
        return subtask;
    }

    @Override
    public int currentParallelism() {
        return parallelism;
    }

    @Override
    public void sendSplitRequest() {
        splitRequests++;
    }

    public int splitRequests() {
        return splitRequests;
    }
}
