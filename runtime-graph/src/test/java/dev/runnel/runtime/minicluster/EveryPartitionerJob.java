package dev.runnel.runtime.minicluster;

import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.api.common.typeinfo.Types;
import dev.runnel.runtime.jobgraph.JobGraph;
import dev.runnel.streaming.api.datastream.DataStream;
import dev.runnel.streaming.api.environment.StreamExecutionEnvironment;
import dev.runnel.streaming.api.functions.sink.RichSinkFunction;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.function.Function;

/**
 * One job that sends the same two producers' records through every partitioner into recording sinks, so a
 * test can check that each record arrives exactly once, at the right consumer, in order per channel, and
 * never behind a watermark that passed it. Built identically by every process that runs a share of it.
 */
final class EveryPartitionerJob {

    /** Partitioner name to how it is applied. */
    static final List<String> PARTITIONERS =
            List.of("rebalance", "shuffle", "keyBy", "broadcast", "rescale", "forward", "global", "custom");

    private EveryPartitionerJob() {}

    static JobGraph build(long recordsPerProducer, Path outputDir) {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.createLocalEnvironment(2);
        env.setBufferTimeout(5);
        env.getConfig().setAutoWatermarkInterval(1); // many watermarks, to check they stay in order with records
        DataStream<Long> source = env.fromSource(new PerSubtaskSequenceSource(recordsPerProducer),
                WatermarkStrategy.<Long>forBoundedOutOfOrderness(Duration.ZERO), "numbers");
        for (String name : PARTITIONERS) {
            partition(name).apply(source).addSink(new Recorder(name, outputDir.toString())).name(name);
        }
        return env.getStreamGraph().getJobGraph();
    }

    private static Function<DataStream<Long>, DataStream<Long>> partition(String name) {
        return switch (name) {
            case "rebalance" -> DataStream::rebalance;
            case "shuffle" -> DataStream::shuffle;
            case "keyBy" -> s -> s.keyBy(x -> x % 10, Types.LONG);
            case "broadcast" -> DataStream::broadcast;
            case "rescale" -> DataStream::rescale;
            case "forward" -> DataStream::forward;
            case "global" -> DataStream::global;
            case "custom" -> s -> s.partitionCustom((Long key, int n) -> (int) (key % n), x -> x % 7);
            default -> throw new IllegalArgumentException(name);
        };
    }

    /** Writes "value timestamp watermark-before-it" lines to {@code <dir>/<name>-<subtask>.txt} at the end. */
    static final class Recorder extends RichSinkFunction<Long> {
        private final String name;
        private final String dir;
        private transient List<String> lines;

        Recorder(String name, String dir) {
            this.name = name;
            this.dir = dir;
        }

        @Override
        public void open(dev.runnel.api.common.functions.OpenContext context) {
            lines = new ArrayList<>();
        }

        @Override
        public void invoke(Long value, Context ctx) {
            lines.add(value + " " + ctx.timestamp() + " " + ctx.currentWatermark());
        }

        @Override
        public void close() {
            int subtask = getRuntimeContext().getTaskInfo().getIndexOfThisSubtask();
            try {
                Files.write(Path.of(dir, name + "-" + subtask + ".txt"), lines);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }
    }
}
