package dev.runnel.flinkpeer;

import org.apache.flink.streaming.api.functions.sink.legacy.RichSinkFunction;

/**
 * The only piece of the peer whose Flink API differs between the two Flink lines: the base class of
 * the checksum sinks. This is the Flink 2.x flavour (compiled with {@code -Pflink2}); the 1.x twin
 * is in {@code src/flink1/java}. Flink 2.0 moved the sink-function API, unchanged, from
 * {@code ...functions.sink} to {@code ...functions.sink.legacy}.
 */
abstract class ChecksumSinkBase<T> extends RichSinkFunction<T> {
    private static final long serialVersionUID = 1L;
}
