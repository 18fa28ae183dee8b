package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.Function;
import dev.runnel.util.Collector;

/** Turns each record of two connected streams into zero or more outputs. */
public interface CoFlatMapFunction<IN1, IN2, OUT> extends Function {

    void flatMap1(IN1 value, Collector<OUT> out) throws Exception;

    void flatMap2(IN2 value, Collector<OUT> out) throws Exception;
}
