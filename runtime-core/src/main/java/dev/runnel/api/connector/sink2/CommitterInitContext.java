package dev.runnel.api.connector.sink2;

import dev.runnel.metrics.MetricGroup;

/** What a {@link SupportsCommitter} sink may know when creating the committer of a subtask. */
public interface CommitterInitContext extends InitContext {

    /** The committer's metric group. */
    MetricGroup metricGroup();
}
