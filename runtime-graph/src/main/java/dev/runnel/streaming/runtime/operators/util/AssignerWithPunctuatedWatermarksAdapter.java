package dev.runnel.streaming.runtime.operators.util;

import dev.runnel.api.common.eventtime.TimestampAssigner;
import dev.runnel.api.common.eventtime.TimestampAssignerSupplier;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkGeneratorSupplier;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.streaming.api.functions.AssignerWithPunctuatedWatermarks;
import java.util.Objects;

/**
 * Runs a legacy {@link AssignerWithPunctuatedWatermarks} as a {@link WatermarkGenerator}: after each
 * event, the assigner's watermark (if any) is emitted. Flink's class of the same name does the same.
 * Task thread only.
 *
 * @param <T> the record type
 */
@SuppressWarnings("deprecation")
public final class AssignerWithPunctuatedWatermarksAdapter<T> implements WatermarkGenerator<T> {

    private final AssignerWithPunctuatedWatermarks<T> assigner;

    public AssignerWithPunctuatedWatermarksAdapter(AssignerWithPunctuatedWatermarks<T> assigner) {
        this.assigner = Objects.requireNonNull(assigner, "assigner");
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {
        dev.runnel.streaming.api.watermark.Watermark next = assigner.checkAndGetNextWatermark(event, eventTimestamp);
        if (next != null) {
            output.emitWatermark(new Watermark(next.getTimestamp()));
        }
    }

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {}

    /**
     * The {@link WatermarkStrategy} of a legacy assigner: the assigner is both the timestamp assigner
     * and, adapted, the watermark generator (one instance, so state it keeps between the two calls
     * works as in Flink).
     *
     * @param <T> the record type
     */
    public static final class Strategy<T> implements WatermarkStrategy<T> {

        private static final long serialVersionUID = 1L;

        private final AssignerWithPunctuatedWatermarks<T> assigner;

        public Strategy(AssignerWithPunctuatedWatermarks<T> assigner) {
            this.assigner = Objects.requireNonNull(assigner, "assigner");
        }

        @Override
        public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
            return assigner;
        }

        @Override
        public WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
            return new AssignerWithPunctuatedWatermarksAdapter<>(assigner);
        }
    }
}
