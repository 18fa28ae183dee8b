package dev.runnel.streaming.api.graph;

import dev.runnel.runtime.jobgraph.ChainedOperator;
import dev.runnel.runtime.jobgraph.JobEdge;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.runtime.jobgraph.JobVertex;
import java.util.List;

/**
 * Renders a compiled job for people: JSON (for tools and the README) and Graphviz DOT (for a
 * picture). Both come from the same {@link JobGraph}: vertices with their chained operators,
 * parallelism and max parallelism; edges with partitioner, distribution pattern and the reason the
 * two sides are not chained.
 */
public final class ExecutionPlan {

    private ExecutionPlan() {}

    /** The plan as pretty-printed JSON. */
    public static String toJson(JobGraph job) {
        StringBuilder json = new StringBuilder();
        json.append("{\n  \"job\": ").append(quote(job.getJobName())).append(",\n  \"vertices\": [");
        List<JobVertex> vertices = job.getVertices();
        for (int v = 0; v < vertices.size(); v++) {
            JobVertex vertex = vertices.get(v);
            json.append(v == 0 ? "\n" : ",\n");
            json.append("    {\"id\": ").append(quote(vertex.getId()))
                    .append(", \"name\": ").append(quote(vertex.getName()))
                    .append(", \"parallelism\": ").append(vertex.getParallelism())
                    .append(", \"maxParallelism\": ").append(vertex.getMaxParallelism())
                    .append(", \"operators\": [");
            List<ChainedOperator> operators = vertex.getOperators();
            for (int i = 0; i < operators.size(); i++) {
                ChainedOperator op = operators.get(i);
                json.append(i == 0 ? "" : ", ")
                        .append("{\"name\": ").append(quote(op.getName()))
                        .append(", \"id\": ").append(quote(op.getConfig().operatorId()))
                        .append(", \"keyed\": ").append(op.getConfig().isKeyed()).append('}');
            }
            json.append("]}");
        }
        json.append("\n  ],\n  \"edges\": [");
        boolean first = true;
        for (JobVertex vertex : vertices) {
            for (JobEdge edge : vertex.getOutputs()) {
                json.append(first ? "\n" : ",\n");
                first = false;
                json.append("    {\"source\": ").append(quote(edge.getSource().getId()))
                        .append(", \"target\": ").append(quote(edge.getTarget().getId()))
                        .append(", \"from\": ").append(quote(edge.getSourceOperatorName()))
                        .append(", \"to\": ").append(quote(edge.getTargetOperatorName()))
                        .append(", \"partitioner\": ").append(quote(edge.getPartitioner().toString()))
                        .append(", \"pattern\": ").append(quote(edge.getDistributionPattern().name()));
                if (edge.getOutputTag() != null) {
                    json.append(", \"sideOutput\": ").append(quote(edge.getOutputTag().getId()));
                }
                if (edge.getTargetInput() != 1) {
                    json.append(", \"input\": ").append(edge.getTargetInput());
                }
                json.append(", \"notChainedBecause\": ").append(quote(edge.getChainBreakReason())).append('}');
            }
        }
        json.append("\n  ]\n}");
        return json.toString();
    }

    /** The plan as a Graphviz digraph: one box per job vertex listing its operators. */
    public static String toDot(JobGraph job) {
        StringBuilder dot = new StringBuilder();
        dot.append("digraph ").append(quote(job.getJobName())).append(" {\n  rankdir=LR;\n  node [shape=box];\n");
        for (JobVertex vertex : job.getVertices()) {
            StringBuilder label = new StringBuilder();
            for (ChainedOperator op : vertex.getOperators()) {
                label.append(op.getName()).append("\\n");
            }
            label.append("parallelism ").append(vertex.getParallelism());
            dot.append("  ").append(vertex.getId()).append(" [label=\"").append(escapeDot(label.toString())).append("\"];\n");
        }
        for (JobVertex vertex : job.getVertices()) {
            for (JobEdge edge : vertex.getOutputs()) {
                dot.append("  ").append(edge.getSource().getId()).append(" -> ").append(edge.getTarget().getId())
                        .append(" [label=\"").append(escapeDot(edge.getPartitioner() + " / " + edge.getDistributionPattern()
                                + "\\n" + edge.getChainBreakReason())).append("\"];\n");
            }
        }
        return dot.append("}\n").toString();
    }

    private static String escapeDot(String text) {
        return text.replace("\"", "\\\"");
    }

    static String quote(String text) {
        if (text == null) {
            return "null";
        }
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
