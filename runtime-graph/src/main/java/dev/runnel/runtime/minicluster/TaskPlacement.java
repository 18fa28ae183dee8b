package dev.runnel.runtime.minicluster;

import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.jobgraph.ShuffleDeployment;
import dev.runnel.runtime.shuffle.TaskLocation;
import java.io.Serializable;
import java.util.List;
import java.util.Map;

/**
 * Where every subtask of one attempt runs, by vertex id and subtask index: the placement shuffle descriptors
 * are computed from, as data, so that it can travel to a TaskManager with a deployment. Immutable.
 */
public record TaskPlacement(Map<String, List<TaskLocation>> byVertex) implements ShuffleDeployment.Placement, Serializable {

    private static final long serialVersionUID = 1L;

    public TaskPlacement {
        byVertex = Map.copyOf(byVertex);
    }

    @Override
    public TaskLocation locate(JobVertex vertex, int subtask) {
        List<TaskLocation> subtasks = byVertex.get(vertex.getId());
        if (subtasks == null || subtask >= subtasks.size()) {
            throw new IllegalArgumentException("The placement has no subtask " + subtask + " of vertex '"
                    + vertex.getName() + "' (" + vertex.getId() + ")");
        }
        return subtasks.get(subtask);
    }
}
