package dev.runnel.flinkpeer;

import org.apache.flink.streaming.api.functions.sink.RichSinkFunction;

/**
 * The only piece of the peer whose Flink API differs between the two Flink lines: the base class of
 * the checksum sinks. This is the Flink 1.x flavour (compiled by the default build); the 2.x twin
 * in {@code src/flink2/java} is picked by the {@code flink2} profile. Flink 2.0 moved the
 * sink-function API, unchanged, to the {@code ...functions.sink.legacy} package.
 */
abstract class ChecksumSinkBase<T> extends RichSinkFunction<T> {
    private static final long serialVersionUID = 1L;
}
