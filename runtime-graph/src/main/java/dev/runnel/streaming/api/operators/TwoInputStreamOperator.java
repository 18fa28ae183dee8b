package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * An operator with two inputs of possibly different types ({@code connect}). Its event time is the
 * minimum of the watermarks of the inputs that are not idle; an idle input does not hold event time back.
 * Task thread only.
 */
public interface TwoInputStreamOperator<IN1, IN2, OUT> extends StreamOperator<OUT> {

    void processElement1(StreamRecord<IN1> element) throws Exception;

    void processElement2(StreamRecord<IN2> element) throws Exception;

    void processWatermark1(Watermark mark) throws Exception;

    void processWatermark2(Watermark mark) throws Exception;

    /** Input 1 became idle (true) or active again (false). */
    void processWatermarkStatus1(boolean idle) throws Exception;

    /** Input 2 became idle (true) or active again (false). */
    void processWatermarkStatus2(boolean idle) throws Exception;

    default void setKeyContextElement1(StreamRecord<IN1> record) throws Exception {}

    default void setKeyContextElement2(StreamRecord<IN2> record) throws Exception {}

    /** Input {@code inputIndex} (1 or 2) ended; the other may still deliver. */
    default void endInput(int inputIndex) throws Exception {}
}
