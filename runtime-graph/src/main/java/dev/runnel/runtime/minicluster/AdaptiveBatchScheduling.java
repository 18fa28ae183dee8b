package dev.runnel.runtime.minicluster;

import dev.runnel.api.common.RuntimeExecutionMode;
import dev.runnel.configuration.BatchExecutionOptions;
import dev.runnel.configuration.Configuration;
import dev.runnel.configuration.ExecutionOptions;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import dev.runnel.runtime.partitioner.DistributionPattern;
import dev.runnel.runtime.shuffle.BlockingPartitionIndex;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Adaptive parallelism for BATCH jobs, as Flink's adaptive batch scheduler does it: every exchange is blocking
 * (producers write files, consumers start when all their producers finished), and a vertex whose parallelism the
 * job did not set gets, when its input is complete, {@code ceil(bytes consumed / avg-data-volume-per-task)}
 * subtasks, within {@code [min-parallelism, max-parallelism]} (the upper bound defaults to the job's default
 * parallelism). Sources the job gave no parallelism take {@code default-source-parallelism}; a vertex fed by a
 * pointwise edge (forward, rescale) takes its producer's parallelism. So a word count over a small input runs its
 * counting at parallelism 1, and {@code print()} writes no {@code "N> "} prefix, exactly as Flink's does.
 *
 * <p>Producers partition an ALL_TO_ALL edge into as many subpartitions as the consumer could have subtasks (its max
 * parallelism), one per key group for a keyed edge; a consumer subtask reads the range of subpartitions that the
 * key-group assignment gives its index, which are exactly the key groups its keyed state owns.
 *
 * <p>Used by the {@link EmbeddedJob} of a BATCH job when every TaskManager shares this machine's disk and the job
 * does not start from a savepoint; the job then takes no checkpoints (BATCH does not checkpoint, as in Flink). The
 * plan of an attempt is built by {@link #startAttempt}; thread-safe (the job's task threads report to it).
 */
final class AdaptiveBatchScheduling {

    private static final Logger LOG = LoggerFactory.getLogger(AdaptiveBatchScheduling.class);

    private final JobGraph job;
    private final long bytesPerTask;
    private final int minParallelism;
    private final Integer maxParallelism;
    private final Integer sourceParallelism;
    /** The parallelism each vertex had when compiled: the default for the vertices decided here. */
    private final Map<String, Integer> compiled = new HashMap<>();
    private final Map<String, Integer> unfinishedTasks = new HashMap<>();
    private final Set<String> deployed = new HashSet<>();

    private AdaptiveBatchScheduling(JobGraph job, Configuration configuration) {
        this.job = job;
        this.bytesPerTask = Math.max(1, configuration.get(
                BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_AVG_DATA_VOLUME_PER_TASK).getBytes());
        this.minParallelism = configuration.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MIN_PARALLELISM);
        this.maxParallelism = configuration.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MAX_PARALLELISM);
        Integer source = configuration.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_DEFAULT_SOURCE_PARALLELISM);
        this.sourceParallelism = source != null ? source : maxParallelism;
        requirePositive(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MIN_PARALLELISM.key(), minParallelism);
        requirePositive(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_MAX_PARALLELISM.key(), maxParallelism);
        requirePositive(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_DEFAULT_SOURCE_PARALLELISM.key(), source);
        job.getVertices().forEach(v -> compiled.put(v.getId(), v.getParallelism()));
    }

    /**
     * The scheduling for {@code job}, or null when it runs pipelined as compiled: a STREAMING job, adaptive
     * parallelism switched off, a job that starts from a savepoint (its state is laid out for the compiled
     * parallelism), or TaskManagers that do not share a disk.
     */
    static AdaptiveBatchScheduling createIfApplicable(JobGraph job, Configuration configuration,
            boolean tasksShareDisk, boolean restoresState) {
        if (job.getConfiguration().get(ExecutionOptions.RUNTIME_MODE) != RuntimeExecutionMode.BATCH
                || !configuration.get(BatchExecutionOptions.ADAPTIVE_AUTO_PARALLELISM_ENABLED)) {
            return null;
        }
        String reason = !tasksShareDisk ? "its TaskManagers do not share a disk for blocking exchanges"
                : restoresState ? "it starts from a savepoint, whose state is laid out for the compiled parallelism"
                : null;
        if (reason != null) {
            LOG.info("BATCH job '{}' runs pipelined at its compiled parallelism: {}", job.getJobName(), reason);
            return null;
        }
        return new AdaptiveBatchScheduling(job, configuration);
    }

    /** The most subtasks {@code vertex} can get here (slots are taken for this many). */
    int upperBound(JobVertex vertex) {
        int compiledParallelism = compiled.get(vertex.getId());
        if (vertex.isParallelismConfigured()) {
            return compiledParallelism;
        }
        // a vertex fed pointwise by a source takes the source's parallelism
        int bound = Math.max(compiledParallelism, Math.max(maxParallelism != null ? maxParallelism : 0,
                sourceParallelism != null ? sourceParallelism : 0));
        return Math.min(bound, vertex.getMaxParallelism());
    }

    /**
     * Lays out attempt {@code attempt}: every edge blocking, under {@code directory}; sources and the vertices
     * their pointwise edges feed get their parallelism now, the others when their input is complete.
     *
     * @return the vertices to deploy first (the sources)
     */
    synchronized List<JobVertex> startAttempt(int attempt, Path directory) {
        unfinishedTasks.clear();
        deployed.clear();
        String files = directory.resolve("blocking").resolve("attempt-" + attempt).toString();
        for (JobVertex vertex : job.getVertices()) {
            for (JobEdge edge : vertex.getOutputs()) {
                edge.setBlocking(new JobEdge.BlockingLayout(files, subpartitions(edge)));
            }
        }
        List<JobVertex> sources = new ArrayList<>();
        for (JobVertex vertex : job.getVertices()) {
            if (vertex.getNumberOfInputs() == 0) {
                if (!vertex.isParallelismConfigured()) {
                    decide(vertex, sourceParallelism != null ? Math.min(sourceParallelism, vertex.getMaxParallelism())
                            : compiled.get(vertex.getId()), "sources without a parallelism of their own");
                }
                sources.add(markDeployed(vertex));
            }
        }
        return sources;
    }

    /**
     * A subtask of {@code vertex} finished. When that completes the vertex, every consumer whose producers are
     * now all complete gets its parallelism and is returned for deployment.
     */
    synchronized List<JobVertex> taskFinished(JobVertex vertex) {
        int left = unfinishedTasks.merge(vertex.getId(), -1, Integer::sum);
        if (left > 0) {
            return List.of();
        }
        List<JobVertex> ready = new ArrayList<>();
        for (JobEdge edge : vertex.getOutputs()) {
            JobVertex consumer = edge.getTarget();
            if (!deployed.contains(consumer.getId()) && inputsComplete(consumer)) {
                if (!consumer.isParallelismConfigured() && !fedPointwise(consumer)) {
                    decideFromInput(consumer);
                }
                ready.add(markDeployed(consumer));
            }
        }
        return ready;
    }

    private JobVertex markDeployed(JobVertex vertex) {
        deployed.add(vertex.getId());
        unfinishedTasks.put(vertex.getId(), vertex.getParallelism());
        return vertex;
    }

    private boolean inputsComplete(JobVertex vertex) {
        for (JobEdge edge : vertex.getInputs()) {
            String producer = edge.getSource().getId();
            if (!deployed.contains(producer) || unfinishedTasks.get(producer) > 0) {
                return false;
            }
        }
        return true;
    }

    private static boolean fedPointwise(JobVertex vertex) {
        return vertex.getInputs().stream().anyMatch(e -> e.getDistributionPattern() == DistributionPattern.POINTWISE);
    }

    /** The bytes {@code vertex}'s producers wrote for it, read from their partitions' indexes. */
    private void decideFromInput(JobVertex vertex) {
        long bytes = 0;
        for (JobEdge edge : vertex.getInputs()) {
            for (int producer = 0; producer < edge.getSource().getParallelism(); producer++) {
                try {
                    bytes += BlockingPartitionIndex.read(edge.getBlocking().file(edge, producer)).bytes();
                } catch (IOException e) {
                    throw new UncheckedIOException(e);
                }
            }
        }
        int upper = Math.min(maxParallelism != null ? maxParallelism : compiled.get(vertex.getId()),
                vertex.getMaxParallelism());
        int lower = Math.min(minParallelism, upper);
        long wanted = (bytes + bytesPerTask - 1) / bytesPerTask;
        int parallelism = (int) Math.max(lower, Math.min(upper, wanted));
        decide(vertex, parallelism, String.format("%,d bytes of input at %,d bytes per subtask, within [%d, %d]",
                bytes, bytesPerTask, lower, upper));
    }

    /** Sets {@code vertex}'s parallelism and hands it on along pointwise edges to the vertices they feed. */
    private void decide(JobVertex vertex, int parallelism, String why) {
        job.decideParallelism(vertex, parallelism);
        LOG.info("Job '{}': '{}' runs at parallelism {} ({})", job.getJobName(), vertex.getName(), parallelism, why);
        for (JobEdge edge : vertex.getOutputs()) {
            JobVertex target = edge.getTarget();
            if (edge.getDistributionPattern() == DistributionPattern.POINTWISE && !target.isParallelismConfigured()
                    && target.getParallelism() != parallelism) {
                decide(target, parallelism, "fed pointwise by '" + vertex.getName() + "'");
            }
        }
    }

    /**
     * An ALL_TO_ALL edge's subpartition count: one for a broadcast (every consumer reads it all), the consumer's
     * parallelism when the job set it (records go where they would pipelined, custom partitioners see the same
     * count), else the consumer's max parallelism: one per key group, so whatever parallelism is decided later
     * reads whole key groups. Pointwise edges take theirs from the wiring when the producer deploys.
     */
    private static int subpartitions(JobEdge edge) {
        JobVertex target = edge.getTarget();
        if (edge.getPartitioner().isBroadcast()) {
            return 1;
        }
        return target.isParallelismConfigured() ? target.getParallelism() : target.getMaxParallelism();
    }

    private static void requirePositive(String key, Integer value) {
        if (value != null && value < 1) {
            throw new IllegalArgumentException(key + " must be at least 1, was " + value);
        }
    }
}
