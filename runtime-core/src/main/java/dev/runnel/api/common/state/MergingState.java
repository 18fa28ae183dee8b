package dev.runnel.api.common.state;

/**
 * Appending state whose entries for several namespaces can be merged into one (what session
 * windows do when they merge).
 */
public interface MergingState<IN, OUT> extends AppendingState<IN, OUT> {}
