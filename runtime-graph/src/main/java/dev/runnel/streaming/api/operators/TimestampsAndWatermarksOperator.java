package dev.runnel.streaming.api.operators;

import dev.runnel.api.common.eventtime.TimestampAssigner;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.streaming.api.operators.source.TimestampsAndWatermarksContext;
import dev.runnel.streaming.runtime.streamrecord.StreamRecord;

/**
 * {@code assignTimestampsAndWatermarks}: stamps each record with the strategy's timestamp and emits the
 * generator's watermarks (on events and every auto-watermark interval). Watermarks from upstream are
 * dropped, except the final one at the end of input, which always passes. In BATCH execution the
 * generator's watermarks are not emitted either: only the final one counts.
 */
public final class TimestampsAndWatermarksOperator<T> extends AbstractStreamOperator<T>
        implements OneInputStreamOperator<T, T> {

    private static final long serialVersionUID = 1L;

    private final WatermarkStrategy<T> strategy;
    private transient TimestampAssigner<T> assigner;
    private transient WatermarkGenerator<T> generator;
    private transient WatermarkEmitter watermarkOutput;
    private transient long interval;

    public TimestampsAndWatermarksOperator(WatermarkStrategy<T> strategy) {
        this.strategy = strategy;
    }

    @Override
    public void open() throws Exception {
        super.open();
        TimestampsAndWatermarksContext context =
                TimestampsAndWatermarksContext.of(getRuntimeContext().getMetricGroup(), getProcessingTimeService());
        assigner = strategy.createTimestampAssigner(context);
        generator = strategy.createWatermarkGenerator(context);
        watermarkOutput = new WatermarkEmitter(output, !task.isBatchExecution());
        interval = task.getExecutionConfig().getAutoWatermarkInterval();
        if (interval > 0 && !task.isBatchExecution()) {
            schedulePeriodicEmit(getProcessingTimeService().getCurrentProcessingTime() + interval);
        }
    }

    private void schedulePeriodicEmit(long at) {
        getProcessingTimeService().registerTimer(at, time -> {
            generator.onPeriodicEmit(watermarkOutput);
            schedulePeriodicEmit(time + interval);
        });
    }

    @Override
    public void processElement(StreamRecord<T> element) throws Exception {
        T value = element.getValue();
        long timestamp = assigner.extractTimestamp(value, element.transportTimestamp());
        element.setTimestamp(timestamp);
        output.collect(element);
        generator.onEvent(value, timestamp, watermarkOutput);
    }

    @Override
    public void processWatermark(Watermark mark) throws Exception {
        if (mark.getTimestamp() == Long.MAX_VALUE) {
            watermarkOutput.emitWatermark(mark);
        }
    }

    @Override
    public void finish() throws Exception {
        generator.onPeriodicEmit(watermarkOutput);
        super.finish();
    }
}
