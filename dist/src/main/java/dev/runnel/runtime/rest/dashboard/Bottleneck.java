package dev.runnel.runtime.rest.dashboard;

import dev.runnel.runtime.dispatcher.DispatcherGateway.EdgeDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.JobDetails;
import dev.runnel.runtime.dispatcher.DispatcherGateway.VertexDetails;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The dashboard's bottleneck rule, the same as {@code findBottleneck} in {@code web/bottleneck.js} (keep them in
 * step; the browser test checks that both give the same sentence):
 *
 * <ol>
 *   <li>A vertex is a <em>candidate</em> when it is busy at least {@value #BUSY_THRESHOLD} of the time, is itself
 *       backpressured less than {@value #BACKPRESSURE_THRESHOLD} (a vertex that waits on its outputs is not the
 *       slow one: the bottleneck is further downstream), and one of its direct inputs is backpressured at least
 *       {@value #BACKPRESSURE_THRESHOLD}. Its <em>input</em> is its most backpressured direct input (the first in
 *       edge order on a tie).</li>
 *   <li>The bottleneck is the candidate busy the most; on a tie, the one whose input is more backpressured; then
 *       the first in vertex order.</li>
 * </ol>
 *
 * Ratios are the vertices' maxima over their subtasks, 0..1; percentages are rounded half up. Worked example:
 * Flat Map (busy 0.30, backpressured 0.88) → Sum (busy 0.97, backpressured 0.02) gives "'Sum' is the bottleneck:
 * busy 97%, its input 'Flat Map' backpressured 88%". Stateless.
 */
public final class Bottleneck {

    public static final double BUSY_THRESHOLD = 0.5;
    public static final double BACKPRESSURE_THRESHOLD = 0.5;
    public static final String NONE = "No bottleneck: no vertex is busy while its input is backpressured.";

    /** The slow vertex and its most backpressured input. */
    public record Found(VertexDetails vertex, VertexDetails input) {

        public String sentence() {
            return String.format("'%s' is the bottleneck: busy %d%%, its input '%s' backpressured %d%%",
                    vertex.name(), percent(vertex.busyRatio()), input.name(), percent(input.backPressuredRatio()));
        }
    }

    private Bottleneck() {}

    public static Optional<Found> find(List<VertexDetails> vertices, List<EdgeDetails> edges) {
        Map<String, VertexDetails> byId = new HashMap<>();
        vertices.forEach(v -> byId.put(v.id(), v));
        Found best = null;
        for (VertexDetails v : vertices) {
            if (v.busyRatio() < BUSY_THRESHOLD || v.backPressuredRatio() >= BACKPRESSURE_THRESHOLD) {
                continue;
            }
            VertexDetails input = null;
            for (EdgeDetails e : edges) {
                VertexDetails u = byId.get(e.sourceVertexId());
                if (e.targetVertexId().equals(v.id()) && u != null && u.backPressuredRatio() >= BACKPRESSURE_THRESHOLD
                        && (input == null || u.backPressuredRatio() > input.backPressuredRatio())) {
                    input = u;
                }
            }
            if (input != null && (best == null || v.busyRatio() > best.vertex().busyRatio()
                    || (v.busyRatio() == best.vertex().busyRatio()
                            && input.backPressuredRatio() > best.input().backPressuredRatio()))) {
                best = new Found(v, input);
            }
        }
        return Optional.ofNullable(best);
    }

    /** The sentence at the top of the job page. */
    public static String sentence(JobDetails job) {
        return find(job.vertices(), job.edges()).map(Found::sentence).orElse(NONE);
    }

    static long percent(double ratio) {
        return Math.round(ratio * 100);
    }
}
