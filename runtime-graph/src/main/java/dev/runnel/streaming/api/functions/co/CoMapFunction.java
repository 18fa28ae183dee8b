package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.Function;

/** Maps the records of two connected streams to one output type. */
public interface CoMapFunction<IN1, IN2, OUT> extends Function {

    OUT map1(IN1 value) throws Exception;

    OUT map2(IN2 value) throws Exception;
}
