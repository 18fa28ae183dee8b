package com.example;

import java.time.Duration;
import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.api.common.functions.FlatMapFunction;
import org.apache.flink.api.java.tuple.Tuple2;
import org.apache.flink.streaming.api.datastream.DataStream;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.util.Collector;

/** Counts words; uses only APIs Runnel has (org.apache.flink.in.a.Comment is not checked). */
public class WordCountJob {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        DataStream<String> lines = env.fromElements("a b", "b c");
        lines.flatMap((FlatMapFunction<String, Tuple2<String, Integer>>) (line, out) -> {
                    for (String w : line.split(" ")) {
                        out.collect(Tuple2.of(w, 1));
                    }
                })
                .returns(org.apache.flink.api.common.typeinfo.Types.TUPLE(
                        org.apache.flink.api.common.typeinfo.Types.STRING, org.apache.flink.api.common.typeinfo.Types.INT))
                .keyBy(t -> t.f0)
                .sum(1)
                .print();
        WatermarkStrategy.<String>forBoundedOutOfOrderness(Duration.ofSeconds(1));
        env.execute("word count"); // org.apache.flink.not.Checked
    }
}
