package dev.runnel.client.program;

import dev.runnel.core.execution.JobClient;
import dev.runnel.runtime.jobgraph.JobGraph;

/**
 * Where a {@link ContextEnvironment} sends the jobs a program executes (Flink's {@code PipelineExecutor}): to a
 * cluster over REST for {@code runnel run}, nowhere for {@code runnel info}. Called on the program's thread.
 */
@FunctionalInterface
public interface JobGraphExecutor {

    /** Submits the compiled job; returns a client on it. */
    JobClient execute(JobGraph jobGraph) throws Exception;
}
