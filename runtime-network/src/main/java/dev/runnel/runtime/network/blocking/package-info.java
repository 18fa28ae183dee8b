/**
 * Blocking exchanges: a producer writes one edge's records to a local file, sorted into subpartition regions, and
 * consumers read ranges of subpartitions after it finished. BATCH jobs use them so that a consumer's
 * parallelism can be decided from the bytes its producers wrote ({@code BatchExecutionOptions}).
 */
package dev.runnel.runtime.network.blocking;
