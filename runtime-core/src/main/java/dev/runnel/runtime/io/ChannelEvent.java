package dev.runnel.runtime.io;

/**
 * A control element that travels in a channel in order with the records: watermarks, idleness,
 * end of partition, and later checkpoint barriers. Events are immutable and may be shared by all
 * channels of a broadcast.
 */
public interface ChannelEvent {}
