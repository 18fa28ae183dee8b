package dev.runnel.streaming.api.functions.co;

import dev.runnel.api.common.functions.AbstractRichFunction;
import dev.runnel.streaming.api.TimeDomain;
import dev.runnel.streaming.api.TimerService;
import dev.runnel.util.Collector;
import dev.runnel.util.OutputTag;

/** Processes two connected keyed streams with keyed state and timers. */
public abstract class KeyedCoProcessFunction<K, IN1, IN2, OUT> extends AbstractRichFunction {

    private static final long serialVersionUID = 1L;

    public abstract void processElement1(IN1 value, Context ctx, Collector<OUT> out) throws Exception;

    public abstract void processElement2(IN2 value, Context ctx, Collector<OUT> out) throws Exception;

    public void onTimer(long timestamp, OnTimerContext ctx, Collector<OUT> out) throws Exception {}

    /** What the process methods can see. */
    public abstract class Context {

        public abstract Long timestamp();

        public abstract TimerService timerService();

        public abstract <X> void output(OutputTag<X> outputTag, X value);

        public abstract K getCurrentKey();
    }

    /** What {@link #onTimer} can see. */
    public abstract class OnTimerContext extends Context {

        public abstract TimeDomain timeDomain();
    }
}
