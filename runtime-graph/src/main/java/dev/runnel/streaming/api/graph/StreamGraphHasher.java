package dev.runnel.streaming.api.graph;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.Deque;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Gives every operator of a stream graph the id its state is stored under: its uid if the user set one,
 * otherwise a hash of its place in the graph, so that the same program finds its state again in a later run.
 * As Flink's, the derived id depends on the order in which a breadth-first walk from the sources reaches
 * the node and on its inputs' ids, not on names or parallelism: renaming an operator or changing a
 * parallelism keeps it, adding or removing an operator before it in the walk changes it. Hence the advice
 * to set a uid on every stateful operator. Stateless and thread-safe.
 */
final class StreamGraphHasher {

    private StreamGraphHasher() {}

    /** The operator id of every node, by node id. */
    static Map<Integer, String> operatorIds(StreamGraph graph) {
        Map<Integer, byte[]> hashes = new LinkedHashMap<>();
        Deque<StreamNode> queue = new ArrayDeque<>();
        List<StreamNode> sources = new ArrayList<>();
        for (StreamNode node : graph.getNodes()) {
            if (node.getInEdges().isEmpty()) {
                sources.add(node);
            }
        }
        sources.sort(Comparator.comparingInt(StreamNode::getId));
        queue.addAll(sources);
        MessageDigest md5 = md5();
        while (!queue.isEmpty()) {
            StreamNode node = queue.poll();
            if (hashes.containsKey(node.getId()) || !inputsHashed(node, hashes)) {
                continue;
            }
            hashes.put(node.getId(), hash(md5, hashes.size(), node, hashes));
            List<StreamEdge> outputs = new ArrayList<>(node.getOutEdges());
            outputs.sort(Comparator.comparingInt(e -> e.getTarget().getId()));
            for (StreamEdge edge : outputs) {
                queue.add(edge.getTarget());
            }
        }
        Map<Integer, String> ids = new LinkedHashMap<>();
        HexFormat hex = HexFormat.of();
        for (StreamNode node : graph.getNodes()) {
            byte[] hash = hashes.get(node.getId());
            ids.put(node.getId(), node.getUid() != null ? node.getUid() : hex.formatHex(hash));
        }
        return ids;
    }

    private static boolean inputsHashed(StreamNode node, Map<Integer, byte[]> hashes) {
        for (StreamEdge edge : node.getInEdges()) {
            if (!hashes.containsKey(edge.getSource().getId())) {
                return false;
            }
        }
        return true;
    }

    private static byte[] hash(MessageDigest md5, int position, StreamNode node, Map<Integer, byte[]> hashes) {
        md5.reset();
        md5.update(ByteBuffer.allocate(4).putInt(position).array());
        List<byte[]> inputs = new ArrayList<>();
        for (StreamEdge edge : node.getInEdges()) {
            inputs.add(hashes.get(edge.getSource().getId()));
        }
        inputs.sort(java.util.Arrays::compare);
        for (byte[] input : inputs) {
            md5.update(input);
        }
        return md5.digest();
    }

    private static MessageDigest md5() {
        try {
            return MessageDigest.getInstance("MD5");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("The JVM lacks MD5, which every Java platform must provide", e);
        }
    }
}
