package com.example;

import org.apache.flink.api.common.eventtime.WatermarkStrategy;
import org.apache.flink.connector.kafka.source.KafkaSource;
import org.apache.flink.streaming.api.environment.StreamExecutionEnvironment;
import org.apache.flink.streaming.api.functions.source.InputFormatSourceFunction;
import org.apache.flink.table.api.*;
import static org.apache.flink.configuration.CoreOptions.DEFAULT_PARALLELISM;
import static org.apache.flink.configuration.CoreOptions.NO_SUCH_OPTION;

/** Reads Kafka: needs what Runnel lacks. */
public class KafkaJob {
    public static void main(String[] args) throws Exception {
        StreamExecutionEnvironment env = StreamExecutionEnvironment.getExecutionEnvironment();
        KafkaSource<String> source = KafkaSource.<String>builder().build();
        env.fromSource(source, WatermarkStrategy.noWatermarks(), "kafka")
                .map(new org.apache.flink.api.common.functions.RichMapFunction<String, String>() {
                    @Override
                    public String map(String value) {
                        return value;
                    }
                })
                .print();
        org.apache.flink.runtime.state.hashmap.HashMapStateBackend backend = null;
        org.apache.flink.contrib.streaming.state.EmbeddedRocksDBStateBackend rocks = null;
        env.execute("kafka");
    }
}
