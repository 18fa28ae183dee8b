package dev.runnel.streaming.runtime.operators.util;

import dev.runnel.api.common.eventtime.TimestampAssigner;
import dev.runnel.api.common.eventtime.TimestampAssignerSupplier;
import dev.runnel.api.common.eventtime.Watermark;
import dev.runnel.api.common.eventtime.WatermarkGenerator;
import dev.runnel.api.common.eventtime.WatermarkGeneratorSupplier;
import dev.runnel.api.common.eventtime.WatermarkOutput;
import dev.runnel.api.common.eventtime.WatermarkStrategy;
import dev.runnel.streaming.api.functions.AssignerWithPeriodicWatermarks;
import java.util.Objects;

/**
 * Runs a legacy {@link AssignerWithPeriodicWatermarks} as a {@link WatermarkGenerator}: on each
 * periodic emit the assigner's current watermark (if any) is emitted. Flink's class of the same name
 * does the same. Task thread only.
 *
 * @param <T> the record type
 */
@SuppressWarnings("deprecation")
public final class AssignerWithPeriodicWatermarksAdapter<T> implements WatermarkGenerator<T> {

    private final AssignerWithPeriodicWatermarks<T> assigner;

    public AssignerWithPeriodicWatermarksAdapter(AssignerWithPeriodicWatermarks<T> assigner) {
        this.assigner = Objects.requireNonNull(assigner, "assigner");
    }

    @Override
    public void onEvent(T event, long eventTimestamp, WatermarkOutput output) {}

    @Override
    public void onPeriodicEmit(WatermarkOutput output) {
        dev.runnel.streaming.api.watermark.Watermark next = assigner.getCurrentWatermark();
        if (next != null) {
            output.emitWatermark(new Watermark(next.getTimestamp()));
        }
    }

    /**
     * The {@link WatermarkStrategy} of a legacy assigner: the assigner is both the timestamp assigner
     * and, adapted, the watermark generator (one instance).
     *
     * @param <T> the record type
     */
    public static final class Strategy<T> implements WatermarkStrategy<T> {

        private static final long serialVersionUID = 1L;

        private final AssignerWithPeriodicWatermarks<T> assigner;

        public Strategy(AssignerWithPeriodicWatermarks<T> assigner) {
            this.assigner = Objects.requireNonNull(assigner, "assigner");
        }

        @Override
        public TimestampAssigner<T> createTimestampAssigner(TimestampAssignerSupplier.Context context) {
            return assigner;
        }

        @Override
        public WatermarkGenerator<T> createWatermarkGenerator(WatermarkGeneratorSupplier.Context context) {
            return new AssignerWithPeriodicWatermarksAdapter<>(assigner);
        }
    }
}
